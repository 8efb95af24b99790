package org.mpcache.policy;

import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The policies a key value can select, by name: a replacement policy, optionally with an
 * admission filter other than its own, {@code <policy>+<filter>} ({@code lru+admission});
 * {@code wholeset} takes its parameters after colons, {@code wholeset:<half-life>:<margin>:
 * <protected accesses>} (trailing ones may be left out), for tuning. A tool may add
 * {@link Variant}s the master never selects; a variant reads its own parameters after colons.
 */
public final class ReplacementPolicies {
  /**
   * The replacement policies: mpCache's data-set policy, the block-level baselines, and the
   * whole-data-set policy.
   */
  public static final List<String> POLICIES = List.of("mpcache", "lru", "lfu", "mru", "wholeset");
  /**
   * The admission filters: none, the paper's decided once per data-set access, and the same
   * decided at every miss (how mpCache's policies first ran it, and still do by default).
   */
  public static final List<String> FILTERS = List.of("none", "admission", "admission-per-block");
  /**
   * What the simulator evaluates by default and a key value may select: each policy with its
   * own filter, mpCache's with the paper's filter decided once per access, and the block-level
   * baselines with the paper's filter.
   */
  public static final List<String> NAMES = List.of("mpcache", "lru", "lfu", "mru", "wholeset",
      "mpcache+admission", "lru+admission", "lfu+admission");
  /**
   * The master's policy unless {@code dfs.mpcache.master.policy} names another: ahead of the
   * paper's on job hits in every setting of docs/policies.md, "Evaluation".
   */
  public static final String DEFAULT = "wholeset";
  private static final char FILTER_SEPARATOR = '+';

  /**
   * A policy by a name of its own that a tool selects beside the master's (an experiment), with
   * {@code ownFilter} unless the name gives {@code +filter}.
   */
  public record Variant(String name, String ownFilter, Factory factory) {
  }

  /**
   * Makes a {@link Variant}'s policy from the settings {@link #create} takes and the parameters
   * its name gives after colons (none: an empty list).
   */
  @FunctionalInterface
  public interface Factory {
    /** @throws IllegalArgumentException saying which parameter it cannot take, and why */
    ReplacementPolicy create(double fullBonus, AdmissionFilter admission,
        List<String> parameters);
  }

  private ReplacementPolicies() {
  }

  /** A new policy of the master's, as {@link #create(String, double, double, List)} makes it. */
  public static ReplacementPolicy create(String name, double fullBonus,
      double backToBackDistance) {
    return create(name, fullBonus, backToBackDistance, List.of());
  }

  /**
   * A new policy, of the master's or of {@code variants}. {@code fullBonus} tunes mpCache's
   * priority and {@code backToBackDistance} the paper's admission filter; the other policies
   * ignore them.
   *
   * @throws IllegalArgumentException naming the known policies and filters when {@code name} is
   *     none of them
   */
  public static ReplacementPolicy create(String name, double fullBonus,
      double backToBackDistance, List<Variant> variants) {
    String spec = name.trim().toLowerCase(Locale.ROOT);
    int plus = spec.indexOf(FILTER_SEPARATOR);
    String policy = plus < 0 ? spec : spec.substring(0, plus);
    String[] parameters = policy.split(":", -1);
    Variant variant = variants.stream().filter(v -> v.name().equals(parameters[0])).findFirst()
        .orElse(null);
    String filter = plus >= 0 ? spec.substring(plus + 1)
        : variant != null ? variant.ownFilter() : ownFilter(parameters[0]);
    if (!POLICIES.contains(parameters[0]) && variant == null || !FILTERS.contains(filter)
        || parameters[0].equals("wholeset") && plus >= 0 || variant == null
        && parameters.length > (parameters[0].equals("wholeset") ? 4 : 1)) {
      throw new IllegalArgumentException("unknown replacement policy '" + name
          + "': expected one of " + POLICIES + variants.stream().map(v -> ", " + v.name())
          .collect(Collectors.joining()) + ", optionally followed by +filter, one of "
          + FILTERS + " (wholeset has its own admission and takes"
          + " :<half-life>:<margin>:<protected accesses>)");
    }
    AdmissionFilter admission = switch (filter) {
      case "admission" -> new AdmissionControl(backToBackDistance, false);
      case "admission-per-block" -> new AdmissionControl(backToBackDistance, true);
      default -> AdmissionFilter.NONE;
    };
    if (variant != null) {
      return naming(name, () -> variant.factory().create(fullBonus, admission,
          List.of(parameters).subList(1, parameters.length)));
    }
    return switch (parameters[0]) {
      case "mpcache" -> new MpCachePolicy(fullBonus, admission, MpCachePolicy.VictimScope.NODE);
      case "lru" -> new BlockRankPolicy(BlockRankPolicy.Kind.LRU, admission);
      case "lfu" -> new BlockRankPolicy(BlockRankPolicy.Kind.LFU, admission);
      case "mru" -> new BlockRankPolicy(BlockRankPolicy.Kind.MRU, admission);
      default -> naming(name, () -> new WholeSetPolicy(
          parameters.length > 1 ? Double.parseDouble(parameters[1])
              : WholeSetPolicy.DEFAULT_HALF_LIFE,
          parameters.length > 2 ? Double.parseDouble(parameters[2])
              : WholeSetPolicy.DEFAULT_MARGIN,
          parameters.length > 3 ? Integer.parseInt(parameters[3])
              : WholeSetPolicy.DEFAULT_PROTECTED_ACCESSES));
    };
  }

  /** Makes a policy, naming it in what refuses its parameters. */
  private static ReplacementPolicy naming(String name, Supplier<ReplacementPolicy> make) {
    try {
      return make.get();
    } catch (IllegalArgumentException e) { // malformed numbers too
      throw new IllegalArgumentException("replacement policy '" + name + "': " + e.getMessage(),
          e);
    }
  }

  /**
   * Checks a name as {@link #create} reads it, the one rule for what a policy name may be (the
   * master's key, the simulator's option).
   *
   * @throws IllegalArgumentException saying what {@link #create} takes when it does not take
   *     {@code name}
   */
  public static void check(String name) {
    create(name, MpCachePolicy.DEFAULT_FULL_BONUS, AdmissionControl.BACK_TO_BACK_DISTANCE);
  }

  /**
   * The name a policy answers to: {@code policy}, followed by {@code +filter} when the filter
   * is not {@code ownFilter}.
   */
  static String name(String policy, String ownFilter, AdmissionFilter admission) {
    return admission.name().equals(ownFilter) ? policy
        : policy + FILTER_SEPARATOR + admission.name();
  }

  /** The filter a policy of the master's runs without {@code +filter}. */
  private static String ownFilter(String policy) {
    return policy.equals("mpcache") ? MpCachePolicy.OWN_FILTER : AdmissionFilter.NONE.name();
  }
}
