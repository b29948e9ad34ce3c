export * from './csrf';
export { FORM_ERROR_KEY, NEVER_REFILLED, payerFields, type FormSession, type PayerField } from './fields';
export * from './form';
export { escapeHtml } from './html';
export * from './render';
export * from './security-headers';
