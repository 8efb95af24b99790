/**
 * The Replace Arbitrator's replacement policies and admission filters, pure and free of Hadoop:
 * the NameNode plugin and the policy simulator drive the same classes. Each is named once in
 * {@link org.mpcache.policy.ReplacementPolicies}.
 */
package org.mpcache.policy;
