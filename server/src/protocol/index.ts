/** The one source of truth for every method and notification between client, webview and worker. */
export * from './base';
export * from './errors';
export * from './wire';
export * from './models';
export * from './qgpt';
export * from './stream';
export * from './workspace';
export * from './launch';
export * from './symbols';
export * from './seeds';
export * from './connector';
export * from './lm';
