// Registers `askcode bench models` (see ../bench.ts).
export {};
