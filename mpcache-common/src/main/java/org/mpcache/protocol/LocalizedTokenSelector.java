package org.mpcache.protocol;

import java.util.Collection;

import org.apache.hadoop.io.Text;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.security.token.TokenIdentifier;
import org.apache.hadoop.security.token.TokenSelector;

/** Picks the caller's localized-channel token for the channel it connects to. */
public final class LocalizedTokenSelector implements TokenSelector<LocalizedTokenIdentifier> {
  @SuppressWarnings("unchecked")
  @Override
  public Token<LocalizedTokenIdentifier> selectToken(Text service,
      Collection<Token<? extends TokenIdentifier>> tokens) {
    for (Token<? extends TokenIdentifier> token : tokens) {
      if (LocalizedTokenIdentifier.KIND.equals(token.getKind())
          && service.equals(token.getService())) {
        return (Token<LocalizedTokenIdentifier>) token;
      }
    }
    return null;
  }
}
