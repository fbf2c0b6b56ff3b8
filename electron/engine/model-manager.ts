/**
 * Models as the app manages them: the catalogue with this machine's fit, downloads (progress,
 * cancel, resume), loading a chat or embedding model and remembering it for the next start —
 * unless it failed to load last time.
 */
import { existsSync, statSync } from 'node:fs';
import { totalmem } from 'node:os';
import { join } from 'node:path';
import type { CatalogueEntry, ModelStatus } from '../../shared/api-contract';
import { MODEL_CATALOGUE, type CatalogueModel } from '../llm/model-catalogue';
import { downloadModel, partialDownloadPaths, type DownloadProgress } from '../llm/model-download';
import type { LoadedModelInfo, ModelHost } from '../llm/model-host';
import { withRecommendation } from './catalogue';
import type { Memory } from '../memory/index';

export type ModelRole = 'chat' | 'embedding';

export class ModelManager {
  private readonly downloads = new Map<string, AbortController>();
  /** Where each download in progress stands: kept here, so a screen opened later (or reloaded) shows it. */
  private readonly progress = new Map<string, { downloadedBytes: number; totalBytes: number }>();
  lastError: string | null = null;

  constructor(
    readonly host: ModelHost,
    /** Where the models loaded at start are remembered (the memory's settings). */
    private readonly settings: Memory['settings'],
    readonly modelsDir: string,
    private readonly catalogue: readonly CatalogueModel[] = MODEL_CATALOGUE,
  ) {}

  entries(): CatalogueEntry[] {
    return catalogueEntries(this.modelsDir, this.catalogue);
  }

  find(id: string): CatalogueModel {
    return catalogueModel(id, this.catalogue);
  }

  /** Downloads a catalogue model into the models directory; resumes a partial download. */
  async download(id: string, onProgress: (p: DownloadProgress) => void): Promise<string> {
    const model = this.find(id);
    if (this.downloads.has(id)) throw new Error(`${model.name} is already downloading`);
    const controller = new AbortController();
    this.downloads.set(id, controller);
    this.progress.set(id, { downloadedBytes: 0, totalBytes: model.sizeBytes });
    try {
      return await downloadCatalogueModel(
        model,
        this.modelsDir,
        (p) => {
          this.progress.set(id, { downloadedBytes: p.downloadedBytes, totalBytes: p.totalBytes });
          onProgress(p);
        },
        controller.signal,
      );
    } finally {
      this.downloads.delete(id);
      this.progress.delete(id);
    }
  }

  /** The downloads in progress and how far each has come. */
  activeDownloads(): { id: string; downloadedBytes: number; totalBytes: number }[] {
    return [...this.progress].map(([id, p]) => ({ id, ...p }));
  }

  cancelDownload(id: string): void {
    this.downloads.get(id)?.abort(new Error('cancelled by the user'));
  }

  async load(role: ModelRole, path: string): Promise<LoadedModelInfo> {
    try {
      if (existsSync(path) && statSync(path).isDirectory()) throw new Error(`${path} is a folder, not a model file: give the path of the .gguf file in it`);
      if (!existsSync(path) || !statSync(path).isFile()) throw new Error(`no model file at ${path}`);
      const info = role === 'chat' ? await this.host.loadChatModel(path) : await this.host.loadEmbeddingModel(path);
      this.settings.update(role === 'chat' ? { chatModelPath: path } : { embeddingModelPath: path });
      this.lastError = null;
      return info;
    } catch (error) {
      this.lastError = (error as Error).message;
      throw error;
    }
  }

  async unload(role: ModelRole): Promise<void> {
    if (role === 'chat') await this.host.unloadChatModel();
    else await this.host.unloadEmbeddingModel();
    this.settings.update(role === 'chat' ? { chatModelPath: null } : { embeddingModelPath: null });
  }

  /** Loads the models used last time, skipping any that failed to load then. Never throws. */
  async autoLoad(): Promise<void> {
    const settings = this.settings.read();
    for (const [role, path] of [['chat', settings.chatModelPath], ['embedding', settings.embeddingModelPath]] as const) {
      if (!path) continue;
      if (!this.host.shouldAutoLoad(path)) {
        this.lastError = `not loading ${path} automatically: it failed to load last time (${this.host.lastLoadAttempt(path)?.error?.message ?? 'unknown error'})`;
        continue;
      }
      try {
        await this.load(role, path);
      } catch {
        // lastError says why; the app stays usable without a model
      }
    }
  }

  status(ingestion: ModelStatus['ingestion']): ModelStatus {
    const loaded = (info: LoadedModelInfo | null) =>
      info && { role: info.role, path: info.path, name: info.name, sizeBytes: info.sizeBytes, contextSize: info.contextSize, embeddingLength: info.embeddingLength, threads: info.threads };
    return { chat: loaded(this.host.chatModel), embedding: loaded(this.host.embeddingModel), totalRamBytes: totalmem(), modelsDir: this.modelsDir, ingestion, lastError: this.lastError };
  }
}

/**
 * The catalogue with this machine's fit and what `modelsDir` holds of each model: no store and no
 * model runtime needed (the app's list, and `tempora models`, which makes nothing).
 */
export function catalogueEntries(modelsDir: string, catalogue: readonly CatalogueModel[] = MODEL_CATALOGUE): CatalogueEntry[] {
  const ram = totalmem();
  return withRecommendation(catalogue.map((m) => {
    const path = join(modelsDir, m.fileName);
    return {
      id: m.id,
      name: m.name,
      role: m.role,
      sizeBytes: m.sizeBytes,
      ramBytes: m.ramBytes,
      fit: m.fitFor(ram),
      notes: m.notes,
      path: existsSync(path) ? path : null,
      partial: partialDownloadPaths(modelsDir, m.fileName).some((p) => existsSync(p)),
    };
  }));
}

/** The catalogue's model with this id; an Error naming the ids it knows otherwise. */
export function catalogueModel(id: string, catalogue: readonly CatalogueModel[] = MODEL_CATALOGUE): CatalogueModel {
  const model = catalogue.find((m) => m.id === id);
  if (!model) throw new Error(`no model "${id}" in the catalogue (known: ${catalogue.map((m) => m.id).join(', ')})`);
  return model;
}

/** Downloads a catalogue model into `modelsDir` (resuming a partial download, verified); its path. */
export async function downloadCatalogueModel(model: CatalogueModel, modelsDir: string, onProgress: (p: DownloadProgress) => void, signal?: AbortSignal): Promise<string> {
  const result = await downloadModel({
    uri: model.uri,
    dirPath: modelsDir,
    fileName: model.fileName,
    sha256: model.sha256,
    expectedSizeBytes: model.sizeIsExact ? model.sizeBytes : null,
    onProgress,
    signal,
  });
  return result.path;
}
