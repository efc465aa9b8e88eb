export * from './constants.js';
export * from './messages.js';
export * from './field-errors.js';
export * from './schemas/common.js';
export * from './schemas/auth.js';
export * from './schemas/products.js';
export * from './schemas/dev-mail.js';
export * from './schemas/catalogue.js';
