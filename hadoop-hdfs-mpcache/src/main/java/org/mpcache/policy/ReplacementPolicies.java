package org.mpcache.policy;

import java.util.List;
import java.util.Locale;

/** The policies a key value can select, by name. */
public final class ReplacementPolicies {
  /**
   * mpCache's data-set policy, the same with Algorithm 1's victim rule as published (for
   * comparison), then the block-level baselines.
   */
  public static final List<String> NAMES =
      List.of("mpcache", "mpcache-as-published", "lru", "lfu", "mru");

  private ReplacementPolicies() {
  }

  /**
   * A new policy. {@code fullBonus} and {@code backToBackDistance} tune mpCache's priority and
   * admission control; the block-level baselines ignore them.
   */
  public static ReplacementPolicy create(String name, double fullBonus,
      double backToBackDistance) {
    return switch (name.toLowerCase(Locale.ROOT)) {
      case "mpcache" -> new MpCachePolicy(fullBonus, backToBackDistance);
      case "mpcache-as-published" -> new MpCachePolicy(fullBonus, backToBackDistance,
          MpCachePolicy.VictimScope.CLUSTER);
      case "lru" -> new BlockRankPolicy(BlockRankPolicy.Kind.LRU);
      case "lfu" -> new BlockRankPolicy(BlockRankPolicy.Kind.LFU);
      case "mru" -> new BlockRankPolicy(BlockRankPolicy.Kind.MRU);
      default -> throw new IllegalArgumentException(
          "unknown replacement policy '" + name + "', expected one of " + NAMES);
    };
  }
}
