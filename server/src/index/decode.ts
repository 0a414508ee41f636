/**
 * Bytes of a source file as text. UTF-8 first (strictly: a file is never stored with U+FFFD standing
 * in for bytes it could not read); then Shift-JIS when it decodes cleanly into Japanese text; then
 * windows-1252 (latin-1) when that gives printable text. Anything else is not indexed ('encoding').
 */
const utf8 = new TextDecoder('utf-8', { fatal: true });
const sjis = new TextDecoder('shift_jis', { fatal: true });
const latin1 = new TextDecoder('windows-1252', { fatal: true });

/** Kana or CJK ideographs: what a real Shift-JIS file holds and a mis-read latin-1 file rarely does. */
const JAPANESE = /[\u3040-\u30ff\u4e00-\u9fff]/g;
/** Half-width katakana: the usual sign of latin-1 accents read as Shift-JIS. */
const HALF_WIDTH_KANA = /[\uff61-\uff9f]/;
/** Control characters other than tab, newline, form feed and carriage return. */
const CONTROL = /[\u0000-\u0008\u000b\u000e-\u001f\u007f-\u009f]/;

export interface Decoded {
  text: string;
  encoding: 'utf-8' | 'shift_jis' | 'windows-1252';
}

export function decodeText(buf: Uint8Array): Decoded | null {
  // A UTF-8 byte order mark is not part of the text.
  const bytes = buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? buf.subarray(3) : buf;
  try {
    return { text: utf8.decode(bytes), encoding: 'utf-8' };
  } catch {
    /* not UTF-8 */
  }
  try {
    const text = sjis.decode(bytes);
    if (!HALF_WIDTH_KANA.test(text) && !CONTROL.test(text) && (text.match(JAPANESE)?.length ?? 0) > 0) return { text, encoding: 'shift_jis' };
  } catch {
    /* not Shift-JIS */
  }
  try {
    const text = latin1.decode(bytes);
    if (!CONTROL.test(text)) return { text, encoding: 'windows-1252' };
  } catch {
    /* unreachable: windows-1252 maps every byte */
  }
  return null;
}
