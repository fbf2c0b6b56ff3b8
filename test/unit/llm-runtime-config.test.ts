import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Semaphore } from '../../electron/llm/async-semaphore';
import { physicalCoreCount, resolveGpu, resolveThreads } from '../../electron/llm/llama-runtime';
import { ModelLoadState } from '../../electron/llm/model-load-state';

describe('runtime configuration', () => {
  it('resolves threads: option > TEMPORA_THREADS > physical cores', () => {
    expect(resolveThreads(3, { TEMPORA_THREADS: '1' })).toBe(3);
    expect(resolveThreads(undefined, { TEMPORA_THREADS: '2' })).toBe(2);
    expect(resolveThreads(undefined, { TEMPORA_THREADS: 'lots' })).toBe(physicalCoreCount());
    expect(resolveThreads(undefined, {})).toBe(physicalCoreCount());
    expect(() => resolveThreads(0)).toThrow(RangeError);
    expect(physicalCoreCount()).toBeGreaterThanOrEqual(1);
  });

  it('resolves the GPU setting: option > TEMPORA_GPU > auto', () => {
    expect(resolveGpu(false, { TEMPORA_GPU: 'cuda' })).toBe(false);
    expect(resolveGpu(undefined, { TEMPORA_GPU: 'off' })).toBe(false);
    expect(resolveGpu(undefined, { TEMPORA_GPU: 'Vulkan' })).toBe('vulkan');
    expect(resolveGpu(undefined, {})).toBe('auto');
  });
});

describe('Semaphore', () => {
  it('limits concurrency and hands permits over in order', async () => {
    const gate = new Semaphore(2);
    let running = 0;
    let peak = 0;
    const order: number[] = [];
    await Promise.all(
      [0, 1, 2, 3, 4].map((i) =>
        gate.run(async () => {
          running++;
          peak = Math.max(peak, running);
          await new Promise((r) => setTimeout(r, 5));
          order.push(i);
          running--;
        }),
      ),
    );
    expect(peak).toBe(2);
    expect(order.sort()).toEqual([0, 1, 2, 3, 4]);
  });

  it('abandons a wait when its signal aborts', async () => {
    const gate = new Semaphore(1);
    const release = await gate.acquire();
    const controller = new AbortController();
    const waiting = gate.acquire(controller.signal);
    controller.abort(new Error('gave up'));
    await expect(waiting).rejects.toThrow('gave up');
    release();
    const again = await gate.acquire();
    again();
  });
});

describe('ModelLoadState', () => {
  it('blocks auto-load after a failure or an unfinished attempt, until the file changes', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tempora-llm-state-'));
    try {
      const model = join(dir, 'm.gguf');
      await writeFile(model, 'GGUF v1');
      const state = new ModelLoadState(join(dir, 'nested', 'state.json'));
      expect(state.shouldAutoLoad(model)).toBe(true); // never tried
      state.recordLoading(model, 'chat');
      expect(state.shouldAutoLoad(model)).toBe(false); // crashed mid-load
      state.recordLoaded(model, 'chat');
      expect(state.shouldAutoLoad(model)).toBe(true);
      state.recordFailed(model, 'chat', { code: 'load_failed', message: 'boom' });
      expect(new ModelLoadState(join(dir, 'nested', 'state.json')).shouldAutoLoad(model)).toBe(false);
      expect(state.lastAttempt(model)).toMatchObject({ status: 'failed', error: { code: 'load_failed', message: 'boom' } });
      await writeFile(model, 'GGUF v2, a different download');
      expect(state.shouldAutoLoad(model)).toBe(true);
      // a corrupt state file is treated as empty
      await writeFile(join(dir, 'nested', 'state.json'), '{not json');
      expect(state.shouldAutoLoad(model)).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
