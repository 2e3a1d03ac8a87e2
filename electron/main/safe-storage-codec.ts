import { safeStorage } from 'electron';
import type { SecretCodec } from '../core';

/**
 * OS-encrypted secrets (Keychain, DPAPI, libsecret/kwallet). On Linux without a keyring Electron
 * falls back to "basic_text", a fixed key that protects nothing: that counts as unavailable, so
 * storing is refused rather than done in effect in plaintext.
 */
export const safeStorageCodec: SecretCodec = {
  status() {
    if (!safeStorage.isEncryptionAvailable()) {
      return { available: false, description: 'the operating system offers no encryption for stored secrets' };
    }
    if (process.platform === 'linux' && safeStorage.getSelectedStorageBackend() === 'basic_text') {
      return { available: false, description: 'no desktop keyring (GNOME Keyring or KWallet) is running to encrypt secrets' };
    }
    return { available: true, description: 'encrypted by the operating system keychain' };
  },
  encode: (plain) => safeStorage.encryptString(plain).toString('base64'),
  decode: (stored) => safeStorage.decryptString(Buffer.from(stored, 'base64')),
};
