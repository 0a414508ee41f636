// Registers `askcode bench qa` (see ../bench.ts).
export {};
