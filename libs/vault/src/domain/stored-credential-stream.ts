/** Every stored-credential event lives on `stored_credential-{id}` (CONTRACT §2 stream names). */
export const storedCredentialStream = (storedCredentialId: string): string =>
  `stored_credential-${storedCredentialId}`;

export const STORED_CREDENTIAL_STREAM_PREFIX = 'stored_credential-';
