/** `review.*`: the review inbox (review.service.ts). */
import type { HandlersFor } from '../rpc/dispatcher';
import type { ReviewService } from './review.service';

export function reviewHandlers(review: ReviewService): HandlersFor<'review'> {
  return {
    'review.list': ({ limit }) => review.list(limit),
    'review.approve': (input) => review.approve(input),
    'review.reject': ({ memoryId }) => review.reject(memoryId),
  };
}
