/**
 * A string whose character reads are counted: how much of a text a function looked at, without timing it. Works
 * with code that reads through length and charCodeAt (token-estimate.ts); slices of it are plain strings again.
 */
export class CountedString extends String {
  reads = 0;
  override charCodeAt(i: number): number {
    this.reads++;
    return super.charCodeAt(i);
  }
  /** Itself, typed as the string the code under test takes. */
  asString(): string {
    return this as unknown as string;
  }
}
