package org.mpcache.protocol;

/**
 * A slave's proof that it runs in the DataNode it names: a block token of that DataNode's block
 * keys (docs/security.md, "The master"), as its identifier's and password's bytes.
 */
public record SlaveProof(byte[] identifier, byte[] password) {
}
