// STUB — replaced by the chat UI.
export {};
