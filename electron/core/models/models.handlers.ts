/** `models.*`: the model server's models, one model's details, pulling a model and stopping a pull. */
import type { HandlersFor } from '../rpc/dispatcher';
import type { ModelsService } from './models.service';

export function modelsHandlers(models: ModelsService): HandlersFor<'models'> {
  return {
    'models.list': () => models.overview(),
    'models.show': ({ name }) => models.show(name),
    'models.pull': ({ name }) => models.pull(name),
    'models.cancelPull': ({ name }) => models.cancelPull(name),
  };
}
