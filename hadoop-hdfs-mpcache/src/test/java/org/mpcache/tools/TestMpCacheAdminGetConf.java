package org.mpcache.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpcache.conf.MpCacheConfigKeys.DFS_MPCACHE_MASTER_ADDRESS_KEY;
import static org.mpcache.conf.MpCacheConfigKeys.DFS_MPCACHE_MASTER_POLICY_KEY;
import static org.mpcache.conf.MpCacheConfigKeys.DFS_MPCACHE_POOL_SHARE_KEY;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.Test;
import org.mpcache.conf.MpCacheConfigKeys;
import org.mpcache.conf.MpCacheKeyRegistry;

import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * {@code hdfs mpcacheadmin -getconf}: the value the daemons read (site files over
 * mpcache-default.xml) without a master; an unknown key exits 1 naming it.
 */
class TestMpCacheAdminGetConf {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  /** Runs the tool as {@code hdfs} does, generic options (-D) included. */
  private int run(Configuration conf, String... args) throws Exception {
    out.reset();
    err.reset();
    return ToolRunner.run(conf, new MpCacheAdmin(conf,
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8)), args);
  }

  private String out() {
    return out.toString(StandardCharsets.UTF_8);
  }

  @Test
  void printsTheDefaultOrTheSiteValueOfOneKey() throws Exception {
    assertEquals(0, run(new Configuration(), "-getconf", DFS_MPCACHE_POOL_SHARE_KEY));
    assertEquals("0.5\n", out());
    assertEquals(0, run(new Configuration(), "-D", DFS_MPCACHE_MASTER_POLICY_KEY + "=lru",
        "-getconf", DFS_MPCACHE_MASTER_POLICY_KEY));
    assertEquals("lru\n", out());
    assertEquals(0, run(new Configuration(), "-getconf", DFS_MPCACHE_MASTER_ADDRESS_KEY));
    assertEquals("\n", out(), "a key without default prints empty");
    assertEquals(0, run(new Configuration(), "-getconf",
        DFS_MPCACHE_MASTER_ADDRESS_KEY + ".ns1.nn1"));
  }

  @Test
  void refusesAKeyThatIsNotMpCaches() throws Exception {
    assertEquals(1, run(new Configuration(), "-getconf", "dfs.mpcache.pool.shares"));
    assertTrue(err.toString(StandardCharsets.UTF_8)
        .contains("dfs.mpcache.pool.shares is not an mpCache key"), err.toString());
    assertEquals("", out());
  }

  @Test
  void withoutAKeyListsEveryKey() throws Exception {
    assertEquals(0, run(new Configuration(), "-getconf"));
    for (String key : MpCacheKeyRegistry.keys()) {
      assertTrue(out().contains(key), key + " missing from:\n" + out());
    }
    assertEquals(0, run(new Configuration(), "-getconf", "-json"));
    Map<?, ?> json = new ObjectMapper().readValue(out(), Map.class);
    assertEquals(MpCacheKeyRegistry.keys().size(), json.size());
    assertEquals("0.5", json.get(DFS_MPCACHE_POOL_SHARE_KEY));
  }

  @Test
  void takesNoOtherAction() throws Exception {
    assertEquals(2, run(new Configuration(false), "-getconf", "-report"));
  }
}
