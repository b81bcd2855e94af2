// The bytes of the images in chat messages: one file per image under
// `<globalStorage>/conversationImages/<conversation id>/<image id>.<ext>`, beside the conversation
// files (never in extension state, which is loaded whole at every start). The conversation keeps
// only ImageRefs. Every name on disk is built from checked ids, so a stored conversation or a
// webview message cannot point outside the folder; a per-conversation cap bounds the disk and the
// requests, which resend every image.
import { createHash } from 'node:crypto';
import { cp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import type { ChatTurn, ImageRef } from '../../../shared/chatModel';
import type { ImageBytes } from '../conversationWire';
import { writeFileDurably } from '../../storage/durableFile';
import { formatByteSize } from '../../limits';
import { checkChatImage, isImageId, MAX_CONVERSATION_IMAGE_BYTES } from '../../images/chatImage';
import { imageFileName, MAX_IMAGE_BYTES } from '../../../shared/chatModel';
import { SerialQueue } from '../../../shared/serialQueue';
import { assertId, codeOf, isValidId } from './conversationFiles';

export class ChatImageStore {
  /** One add at a time per conversation: the cap is measured on disk, then the file written. */
  private readonly adds = new SerialQueue();

  constructor(readonly directory: string) {
    if (!isAbsolute(directory)) throw new Error(`The image folder must be an absolute path: ${directory}`);
  }

  /** The folder of one conversation's images. */
  folderOf(conversationId: string): string {
    assertId(conversationId);
    return join(this.directory, conversationId);
  }

  /** The file of one image; throws for an id that is not a hash (a hand-edited file, a hostile message). */
  fileOf(conversationId: string, ref: Pick<ImageRef, 'id' | 'mediaType'>): string {
    if (!isImageId(ref.id)) throw new Error(`Invalid image id ${JSON.stringify(ref.id)}.`);
    return join(this.folderOf(conversationId), imageFileName(ref));
  }

  /**
   * Checks the bytes (type by magic number, size) and the conversation's cap, then stores them.
   * Returns the image's description, or why it was refused (a sentence for the user).
   */
  async add(conversationId: string, bytes: Uint8Array, name?: string): Promise<ImageRef | string> {
    const ref = checkChatImage(bytes, name);
    if (typeof ref === 'string') return ref;
    return this.adds.runFor(conversationId, () => this.store(conversationId, ref, bytes));
  }

  private async store(conversationId: string, ref: ImageRef, bytes: Uint8Array): Promise<ImageRef | string> {
    const file = this.fileOf(conversationId, ref);
    if (await exists(file)) return ref; // the same image again: stored once
    const used = await this.bytesUsed(conversationId);
    if (used + ref.byteLength > MAX_CONVERSATION_IMAGE_BYTES)
      return `This conversation's images would weigh ${formatByteSize(used + ref.byteLength)}; at most ${formatByteSize(MAX_CONVERSATION_IMAGE_BYTES)} can be kept with one conversation. Start a new conversation for more images.`;
    await writeFileDurably(file, bytes);
    return ref;
  }

  /**
   * The bytes of an image, or undefined when the file is gone or no longer matches its hash (it
   * was changed on disk: it is not sent as the image the user attached).
   */
  async read(conversationId: string, ref: ImageRef): Promise<Uint8Array | undefined> {
    let bytes: Buffer;
    try {
      const file = this.fileOf(conversationId, ref);
      if ((await stat(file)).size > MAX_IMAGE_BYTES) return undefined;
      bytes = await readFile(file);
    } catch {
      return undefined;
    }
    return createHash('sha256').update(bytes).digest('hex') === ref.sha256 ? bytes : undefined;
  }

  /**
   * The base64 bytes of every image in `turns`, by id, for a request. An image whose file is gone
   * or changed is left out (the wire names it instead: conversationWire.ts).
   */
  async readAll(conversationId: string, turns: readonly ChatTurn[]): Promise<ImageBytes> {
    const refs = new Map<string, ImageRef>();
    for (const turn of turns) if (turn.role === 'user') for (const ref of turn.images ?? []) refs.set(ref.id, ref);
    const out = new Map<string, string>();
    for (const ref of refs.values()) {
      const bytes = await this.read(conversationId, ref);
      if (bytes) out.set(ref.id, Buffer.from(bytes).toString('base64'));
    }
    return out;
  }

  /**
   * Writes back images read with readAll (Undo of a delete brings the conversation back with its
   * pictures). Each is checked again against its ref's hash: only the bytes that were read return.
   */
  async restoreAll(conversationId: string, turns: readonly ChatTurn[], bytes: ImageBytes): Promise<void> {
    for (const turn of turns)
      for (const ref of turn.role === 'user' ? (turn.images ?? []) : []) {
        const data = bytes.get(ref.id);
        if (!data) continue;
        const raw = Buffer.from(data, 'base64');
        if (createHash('sha256').update(raw).digest('hex') === ref.sha256)
          await writeFileDurably(this.fileOf(conversationId, ref), raw);
      }
  }

  /** Copies a conversation's images to another id (a save that became a copy keeps its pictures). */
  async copyConversation(fromId: string, toId: string): Promise<void> {
    try {
      await cp(this.folderOf(fromId), this.folderOf(toId), { recursive: true, errorOnExist: false, force: false });
    } catch (error) {
      if (codeOf(error) !== 'ENOENT') throw error;
    }
  }

  /** Removes one image file (an attachment taken back before sending). */
  async remove(conversationId: string, ref: Pick<ImageRef, 'id' | 'mediaType'>): Promise<void> {
    await rm(this.fileOf(conversationId, ref), { force: true });
  }

  /** Removes every image of a conversation (it was deleted). */
  async removeConversation(conversationId: string): Promise<void> {
    await rm(this.folderOf(conversationId), { recursive: true, force: true });
  }

  /**
   * Removes the image folders of conversations that no longer exist (`known`: the history's ids),
   * which a draft never sent or a crash can leave behind. A folder touched within `graceMs` stays:
   * it may belong to a conversation another window has not saved yet. Returns the ids removed.
   */
  async pruneOrphans(known: ReadonlySet<string>, now: number, graceMs = ORPHAN_GRACE_MS): Promise<string[]> {
    let names: string[];
    try {
      names = await readdir(this.directory);
    } catch (error) {
      if (codeOf(error) === 'ENOENT') return [];
      throw error;
    }
    const removed: string[] = [];
    for (const name of names) {
      if (!isValidId(name) || known.has(name)) continue;
      const folder = join(this.directory, name);
      if (now - (await newestChange(folder)) < graceMs) continue;
      await rm(folder, { recursive: true, force: true });
      removed.push(name);
    }
    return removed;
  }

  /** What the conversation's images weigh on disk now. */
  async bytesUsed(conversationId: string): Promise<number> {
    const folder = this.folderOf(conversationId);
    let names: string[];
    try {
      names = await readdir(folder);
    } catch (error) {
      if (codeOf(error) === 'ENOENT') return 0;
      throw error;
    }
    const sizes = await Promise.all(
      names.map((name) =>
        stat(join(folder, name)).then(
          (s) => s.size,
          () => 0,
        ),
      ),
    );
    return sizes.reduce((sum, size) => sum + size, 0);
  }
}

/** A day: an unsaved conversation in another window keeps its images for at least this long. */
const ORPHAN_GRACE_MS = 24 * 60 * 60 * 1000;

/** When the folder or a file in it last changed (ms); never long ago when that cannot be told, so it stays. */
async function newestChange(folder: string): Promise<number> {
  try {
    const times = [(await stat(folder)).mtimeMs];
    for (const name of await readdir(folder)) times.push((await stat(join(folder, name))).mtimeMs);
    return Math.max(...times);
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

async function exists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch {
    return false;
  }
}
