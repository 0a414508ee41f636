// Registers `askcode bench index` (see ../bench.ts).
export {};
