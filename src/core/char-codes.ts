/** Char codes that the hand-written scanners (exact-json.ts, text-shapes.ts) compare against. */
export const QUOTE = 0x22;
export const MINUS = 0x2d;
export const DIGIT_0 = 0x30;
export const COLON = 0x3a;
export const DIGIT_9 = 0x39;
export const EQUALS = 0x3d;
export const BACKSLASH = 0x5c;
