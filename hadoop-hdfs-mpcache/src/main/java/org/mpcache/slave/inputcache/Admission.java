package org.mpcache.slave.inputcache;

import java.util.List;

/** An arbiter's answer to "may I cache this block?": yes after these victims go, or no. */
public record Admission(boolean admitted, List<BlockKey> victims) {
  public static final Admission REJECTED = new Admission(false, List.of());

  public Admission {
    victims = List.copyOf(victims);
  }

  public static Admission admit(List<BlockKey> victims) {
    return new Admission(true, victims);
  }
}
