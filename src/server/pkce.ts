/** PKCE (RFC 7636), S256 only: one definition for the client and the service (src/protocol). */
export { isWellFormedVerifier, S256_CHALLENGE, verifierMatches } from '../protocol/pkce.js';
