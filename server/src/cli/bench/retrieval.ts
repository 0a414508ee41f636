// Registers `askcode bench retrieval` (see ../bench.ts).
export {};
