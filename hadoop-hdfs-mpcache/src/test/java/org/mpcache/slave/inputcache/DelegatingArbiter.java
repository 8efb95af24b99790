package org.mpcache.slave.inputcache;

import java.util.List;

/** An arbiter for tests: the slave's own LRU arbiter, with the calls a test overrides. */
public class DelegatingArbiter implements CacheArbiter {
  final LocalArbiter local = new LocalArbiter(1L << 30);

  @Override
  public Admission requestAdmission(BlockKey block, long bytes,
      Room room) {
    return local.requestAdmission(block, bytes, room);
  }

  @Override
  public void onHit(BlockKey block) {
    local.onHit(block);
  }

  @Override
  public void onCached(BlockKey block, long bytes) {
    local.onCached(block, bytes);
  }

  @Override
  public void onRemoved(BlockKey block) {
    local.onRemoved(block);
  }

  @Override
  public List<BlockKey> shrinkVictims(long excessBytes) {
    return local.shrinkVictims(excessBytes);
  }

  @Override
  public String describe() {
    return "a test's arbiter";
  }
}
