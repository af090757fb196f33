// Public API of this package: not implemented yet (see the open issues).
export {};
export * from './runtime/index.js';
