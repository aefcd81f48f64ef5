/**
 * The official A2A client decodes `raw` file parts with Node's `Buffer` (`Buffer.from(base64,
 * "base64")`, `Buffer.from(bytes).toString("base64")`). A browser has none, so this installs the
 * little of it the client calls, over Uint8Array: no dependency, and only when `Buffer` is absent.
 */

const toBase64 = (bytes: Uint8Array): string => {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
};

const fromBase64 = (text: string): Uint8Array => {
  const binary = atob(text.replace(/[-_]/g, (c) => (c === "-" ? "+" : "/")).replace(/\s/g, ""));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
};

class ShimBuffer extends Uint8Array {
  static override from(value: unknown, encoding?: unknown): ShimBuffer {
    if (typeof value === "string") {
      const bytes = encoding === "base64" ? fromBase64(value) : new TextEncoder().encode(value);
      return new ShimBuffer(bytes);
    }
    if (value instanceof Uint8Array) return new ShimBuffer(value);
    if (value instanceof ArrayBuffer) return new ShimBuffer(new Uint8Array(value));
    if (Array.isArray(value)) return new ShimBuffer(Uint8Array.from(value as number[]));
    throw new TypeError("Buffer.from: unsupported value");
  }

  static isBuffer(value: unknown): value is ShimBuffer {
    return value instanceof ShimBuffer;
  }

  override toString(encoding?: string): string {
    return encoding === "base64" ? toBase64(this) : new TextDecoder().decode(this);
  }
}

const scope = globalThis as { Buffer?: unknown };
if (scope.Buffer === undefined) scope.Buffer = ShimBuffer;
