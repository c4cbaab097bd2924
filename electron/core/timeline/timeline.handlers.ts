/** `timeline.*`: what happened when (timeline.service.ts). */
import type { HandlersFor } from '../rpc/dispatcher';
import type { TimelineService } from './timeline.service';

export function timelineHandlers(timeline: TimelineService): HandlersFor<'timeline'> {
  return {
    'timeline.list': (input) => timeline.list(input),
    'timeline.activity': (input) => timeline.activity(input),
    'timeline.versions': (input) => timeline.versions(input),
  };
}
