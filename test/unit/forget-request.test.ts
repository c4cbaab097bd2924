/**
 * The forget-request rule (electron/core/text/forget-request.ts) on a corpus of sentences people write: requests to
 * forget, with the subject they name, and sentences that use the same words without asking Mnemo to forget anything.
 */
import { describe, expect, it } from 'vitest';
import { detectForgetRequest } from '../../electron/core/text/forget-request';
import { FORGET_REQUESTS, NOT_FORGET_REQUESTS } from '../fixtures/forget-corpus';

describe('detectForgetRequest', () => {
  it.each(FORGET_REQUESTS)('%s -> a request to forget "%s"', (text, subject) => {
    expect(detectForgetRequest(text)).toEqual({ subject });
  });

  it.each(NOT_FORGET_REQUESTS)('%s -> not a request', (text) => {
    expect(detectForgetRequest(text)).toBeNull();
  });
});
