/**
 * How the Models screen's download card tells a cancelled download (renderer/src/models/
 * download-outcome.ts): by the error's code and detail (the model layer's 'cancelled'), or, where
 * the error carries no detail (the engine sends a cancel as an internal error with a message only),
 * by this window having asked to cancel it — never by the word "cancel" in the message, which a
 * file name or another failure's words may hold.
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../renderer/src/api/errors';
import { downloadCancelled } from '../../renderer/src/models/download-outcome';

describe('a download card’s cancelled download', () => {
  it('is not a failure whose words merely hold “cancel”', () => {
    expect(downloadCancelled(new ApiError('internal', 'Download of cancel-notes.gguf failed: checksum mismatch'), false)).toBe(false);
    expect(downloadCancelled('Download of cancellation-7b.gguf failed: connection reset', false), 'the progress event’s words').toBe(false);
    expect(downloadCancelled(new ApiError('model', 'cancel-notes.gguf is not a GGUF file', { detail: 'not_gguf' }), false)).toBe(false);
  });

  it('is one whose detail says so, whatever its words', () => {
    expect(downloadCancelled(new ApiError('model', 'Download stopped', { detail: 'cancelled' }), false)).toBe(true);
    expect(downloadCancelled(new ApiError('model', 'Download of x.gguf was cancelled', { detail: 'cancelled' }), true)).toBe(true);
  });

  it('is one that stopped after this window asked to cancel it, when the error has no detail', () => {
    expect(downloadCancelled(new ApiError('internal', 'Download of x.gguf was cancelled'), true)).toBe(true);
    expect(downloadCancelled('Download of x.gguf was cancelled', true), 'the progress event’s words').toBe(true);
  });

  it('is not one that failed otherwise, though a cancel was asked', () => {
    expect(downloadCancelled(new ApiError('model', 'checksum mismatch', { detail: 'checksum_mismatch' }), true), 'its detail says what it was').toBe(false);
    expect(downloadCancelled(new ApiError('disconnected', 'not connected to Tempora (the connection was closed)'), true), 'the page lost the core: nothing is known of the download').toBe(false);
    expect(downloadCancelled(new ApiError('busy', 'too many calls at once (at most 64)'), true)).toBe(false);
  });

  it('is nothing when nothing failed', () => {
    expect(downloadCancelled(null, true)).toBe(false);
    expect(downloadCancelled(undefined, false)).toBe(false);
  });
});
