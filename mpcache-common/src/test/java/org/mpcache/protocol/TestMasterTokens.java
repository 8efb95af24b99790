package org.mpcache.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.hdfs.client.HdfsClientConfigKeys;
import org.apache.hadoop.io.Text;
import org.junit.jupiter.api.Test;

/**
 * Which of a caller's HDFS delegation tokens is cloned for the master: the one HDFS itself
 * issues for the default file system, HA or not (TestSecureMaster runs a clone end to end).
 */
class TestMasterTokens {
  private static Configuration defaultFs(String uri) {
    Configuration conf = new Configuration(false);
    conf.set(CommonConfigurationKeysPublic.FS_DEFAULT_NAME_KEY, uri);
    return conf;
  }

  @Test
  void theTokenOfTheDefaultNameNodeOrNameservice() {
    assertEquals(new Text("127.0.0.1:8020"),
        MasterTokens.nameNodeService(defaultFs("hdfs://127.0.0.1:8020")));
    Configuration ha = defaultFs("hdfs://ns1");
    ha.set(HdfsClientConfigKeys.DFS_NAMESERVICES, "ns1");
    ha.set(HdfsClientConfigKeys.DFS_HA_NAMENODES_KEY_PREFIX + ".ns1", "nn1,nn2");
    ha.set(HdfsClientConfigKeys.Failover.PROXY_PROVIDER_KEY_PREFIX + ".ns1",
        "org.apache.hadoop.hdfs.server.namenode.ha.ConfiguredFailoverProxyProvider");
    assertEquals(new Text("ha-hdfs:ns1"), MasterTokens.nameNodeService(ha));
    assertNull(MasterTokens.nameNodeService(defaultFs("viewfs://cluster/")));
  }
}
