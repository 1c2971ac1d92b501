export * from './canonical-json';
export * from './hmac';
export * from './rsa';
export * from './fingerprint';
export * from './callback-signature';
