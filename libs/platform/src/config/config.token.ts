/** DI token of the validated {@link AppConfig}. */
export const APP_CONFIG = Symbol('APP_CONFIG');
