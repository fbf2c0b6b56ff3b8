/**
 * One sync's reads of its target (docs/sync.md "One sync"): the listing of `devices/` is read once —
 * the name check before a sync (device-names.ts), each upload's look for a stray file of its number
 * and the look for the others' segments all answer from it, with this sync's own puts and removes
 * written into it — and a segment the name check fetched for the name in its header is handed to the
 * sync that applies it instead of being fetched again. The key check is read once: the unlock and the
 * sync's look at which target this is read the same bytes.
 *
 * Why the whole segment for its header: a segment is sealed as one XChaCha20-Poly1305 message with one
 * tag at its end, so no prefix of it can be told genuine before all of it is read; a ranged read would
 * give a header nobody vouches for. Segments never change under their names (a rewrite is a new name),
 * so nothing held goes stale within one sync; a file another device puts meanwhile is listed by the
 * next sync. A new TargetReads for each sync: nothing is kept from one sync to the next.
 */
import { checkSyncPrefix, type SyncTarget, type SyncTargetFile } from './sync-target';

/** What is listed once: every device's files. */
const LISTED = 'devices/';

/** A sync's reads go one after another (a name check, then the sync's steps): none runs beside another. */
export class TargetReads implements SyncTarget {
  readonly describe: string;
  /** The listing once read (null: not yet; a listing that failed is read again by whoever asks next). */
  private listing: SyncTargetFile[] | null = null;
  /** Files fetched ahead (a name check's), each given to the next get of its name. */
  private readonly held = new Map<string, Uint8Array>();
  /** Files outside `devices/` read once (the key check: the unlock and the sync's look at which target this is). */
  private readonly kept = new Map<string, Uint8Array>();

  constructor(private readonly target: SyncTarget) {
    this.describe = target.describe;
  }

  /** The reads of a sync under way, or new ones over a plain target. */
  static of(target: SyncTarget): TargetReads {
    return target instanceof TargetReads ? target : new TargetReads(target);
  }

  async list(prefix: string): Promise<SyncTargetFile[]> {
    checkSyncPrefix(prefix, this.describe);
    if (!prefix.startsWith(LISTED)) return this.target.list(prefix);
    this.listing ??= await this.target.list(LISTED);
    return this.listing.filter((file) => file.name.startsWith(prefix));
  }

  async get(name: string): Promise<Uint8Array> {
    if (!name.startsWith(LISTED)) {
      const kept = this.kept.get(name) ?? (await this.target.get(name));
      this.kept.set(name, kept);
      return kept;
    }
    const held = this.held.get(name);
    if (held === undefined) return this.target.get(name);
    this.held.delete(name);
    return held;
  }

  /** The file, also held for the next get of its name (a segment the sync will apply, read ahead for its header). */
  async readAhead(name: string): Promise<Uint8Array> {
    const bytes = this.held.get(name) ?? (await this.target.get(name));
    this.held.set(name, bytes);
    return bytes;
  }

  async put(name: string, bytes: Uint8Array): Promise<void> {
    await this.target.put(name, bytes);
    this.held.delete(name);
    this.kept.delete(name);
    this.relist((files) => [...files.filter((file) => file.name !== name), { name, size: bytes.byteLength }].sort(byName));
  }

  async remove(name: string): Promise<void> {
    await this.target.remove(name);
    this.held.delete(name);
    this.kept.delete(name);
    this.relist((files) => files.filter((file) => file.name !== name));
  }

  private relist(change: (files: SyncTargetFile[]) => SyncTargetFile[]): void {
    if (this.listing) this.listing = change(this.listing);
  }
}

const byName = (a: SyncTargetFile, b: SyncTargetFile) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
