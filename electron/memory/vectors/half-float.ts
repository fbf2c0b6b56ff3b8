/**
 * Vectors as they are stored (vector-table.ts): IEEE 754 half precision (float16), two bytes a
 * value instead of four. Embeddings are unit vectors, their values within ±1, where float16 keeps
 * about three significant digits: a cosine distance moves by well under 0.001 and the nearest ten
 * stay the nearest ten (the eval's recall@10 is the same, docs/benchmarks.md). Arrow holds float16
 * as the raw bits in a Uint16Array; these convert to and from them, rounding to nearest, ties to even.
 */

const single = new Float32Array(1);
const singleBits = new Uint32Array(single.buffer);

/** The float16 bits nearest to `value` (±Infinity beyond 65504, ±0 below 2⁻²⁵). */
export function halfBits(value: number): number {
  single[0] = value;
  const x = singleBits[0]!;
  const sign = (x >>> 16) & 0x8000;
  const exponent = (x >>> 23) & 0xff;
  let mantissa = x & 0x7fffff;
  if (exponent === 0xff) return sign | 0x7c00 | (mantissa ? 0x200 : 0); // Infinity, NaN
  const e = exponent - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00;
  if (e <= 0) {
    // a subnormal float16 (or zero): mantissa × 2⁻²⁴
    if (e < -10) return sign;
    mantissa |= 0x800000;
    const shift = 14 - e;
    const half = mantissa >>> shift;
    const rest = mantissa & ((1 << shift) - 1);
    const middle = 1 << (shift - 1);
    return sign | (rest > middle || (rest === middle && half & 1) ? half + 1 : half);
  }
  const half = (e << 10) | (mantissa >>> 13);
  const rest = mantissa & 0x1fff;
  // A carry out of the mantissa raises the exponent, as it should (up to Infinity).
  return sign | (rest > 0x1000 || (rest === 0x1000 && half & 1) ? half + 1 : half);
}

/** The number float16 `bits` stand for. */
export function halfValue(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const e = (bits >>> 10) & 0x1f;
  const m = bits & 0x3ff;
  if (e === 0) return sign * m * 2 ** -24;
  if (e === 0x1f) return m ? Number.NaN : sign * Number.POSITIVE_INFINITY;
  return sign * (1 + m / 1024) * 2 ** (e - 15);
}

/** `values` (from `start`, `length` of them) as float16 bits. */
export function toHalf(values: ArrayLike<number>, start = 0, length = values.length - start): Uint16Array {
  const out = new Uint16Array(length);
  for (let i = 0; i < length; i++) out[i] = halfBits(values[start + i]!);
  return out;
}

/** float16 bits back to float32 values. */
export function fromHalf(bits: ArrayLike<number>): Float32Array {
  const out = new Float32Array(bits.length);
  for (let i = 0; i < bits.length; i++) out[i] = halfValue(bits[i]!);
  return out;
}
