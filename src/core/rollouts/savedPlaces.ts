import type { Transcript } from '../transcript/model';
import type { SavedAt } from './pipeline';

/** Where each of the board's rollouts lies in its file, as columns of numbers; or the rollout itself when it cannot be read again. */
export class SavedPlaces {
  /** -1: held whole. */
  private readonly offsets: number[] = [];
  private readonly lengths: number[] = [];
  private readonly fileOf: number[] = [];
  private readonly files: string[] = [];
  private readonly wholes = new Map<number, Transcript>();

  /** The next rollout: where it lies, else the rollout itself. */
  add(t: Transcript, at: SavedAt | undefined): void {
    if (!at) this.wholes.set(this.offsets.length, t);
    if (at && this.files[this.files.length - 1] !== at.file) this.files.push(at.file);
    this.offsets.push(at ? at.offset : -1);
    this.lengths.push(at ? at.bytes : 0);
    this.fileOf.push(at ? this.files.lastIndexOf(at.file) : -1);
  }

  /** The rollout held whole, when it cannot be read again. */
  whole(index: number): Transcript | undefined {
    return this.wholes.get(index);
  }

  at(index: number): SavedAt {
    return { file: this.files[this.fileOf[index]], offset: this.offsets[index], bytes: this.lengths[index] };
  }
}
