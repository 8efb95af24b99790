package org.mpcache.simulator;

import java.util.ArrayList;
import java.util.List;

import org.mpcache.policy.AdaptiveWholeSetPolicy;
import org.mpcache.policy.AdmissionControl;
import org.mpcache.policy.AdmissionFilter;
import org.mpcache.policy.MpCachePolicy;
import org.mpcache.policy.ReplacementPolicies;
import org.mpcache.policy.ReplacementPolicy;

/**
 * The policies the simulator and the lab run: the master's, and experiments the master never
 * selects.
 */
public final class SimulatorPolicies {
  /**
   * mpCache's policy with Algorithm 1's victim rule as published (victims from the whole queue),
   * beside the master's for comparison (docs/policies.md).
   */
  public static final ReplacementPolicies.Variant AS_PUBLISHED = new ReplacementPolicies.Variant(
      "mpcache-as-published", MpCachePolicy.OWN_FILTER,
      (fullBonus, admission, parameters) -> {
        if (!parameters.isEmpty()) {
          throw new IllegalArgumentException("mpcache-as-published takes no parameters");
        }
        return new MpCachePolicy(fullBonus, admission, MpCachePolicy.VictimScope.CLUSTER);
      });
  /**
   * wholeset ranking by the half-life its shadows found best of late (docs/policies.md), with
   * the parameters {@link AdaptiveWholeSetPolicy#fromParameters} reads.
   */
  public static final ReplacementPolicies.Variant ADAPTIVE = new ReplacementPolicies.Variant(
      "wholeset-adaptive", AdmissionFilter.NONE.name(),
      (fullBonus, admission, parameters) -> {
        if (admission != AdmissionFilter.NONE) {
          throw new IllegalArgumentException("wholeset-adaptive admits by its own rule: it takes"
              + " no +" + admission.name());
        }
        return AdaptiveWholeSetPolicy.fromParameters(parameters);
      });
  /** The experiments, by the names the simulator's --policies takes beside the master's. */
  public static final List<ReplacementPolicies.Variant> EXPERIMENTS =
      List.of(AS_PUBLISHED, ADAPTIVE);
  /** What the simulator evaluates by default: the master's names, as-published after mpcache. */
  public static final List<String> NAMES = withAsPublished(ReplacementPolicies.NAMES);
  /** The replacement policies, each with its own filter: the master's and the experiments. */
  public static final List<String> POLICIES = withAsPublished(ReplacementPolicies.POLICIES);

  private SimulatorPolicies() {
  }

  /** A new policy of the master's or an experiment, with the default constants. */
  public static ReplacementPolicy create(String name) {
    return ReplacementPolicies.create(name, MpCachePolicy.DEFAULT_FULL_BONUS,
        AdmissionControl.BACK_TO_BACK_DISTANCE, EXPERIMENTS);
  }

  private static List<String> withAsPublished(List<String> names) {
    List<String> all = new ArrayList<>(names);
    all.add(all.indexOf("mpcache") + 1, AS_PUBLISHED.name());
    return List.copyOf(all);
  }
}
