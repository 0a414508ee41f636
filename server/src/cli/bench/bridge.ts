// Registers `askcode bench bridge` (see ../bench.ts).
export {};
