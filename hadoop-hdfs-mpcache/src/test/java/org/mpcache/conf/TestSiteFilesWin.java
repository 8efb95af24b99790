package org.mpcache.conf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.mpcache.conf.MpCacheConfigKeys.DFS_MPCACHE_CAPACITY_KEY;
import static org.mpcache.conf.MpCacheConfigKeys.DFS_MPCACHE_ENABLED_KEY;

import java.io.File;
import java.io.FileOutputStream;
import java.io.OutputStream;
import java.nio.file.Files;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.mpcache.tools.MpCacheAdmin;

/**
 * A value an operator writes in a site file is what the daemons read, mpcache-default.xml
 * notwithstanding: the file must never be loaded after the site files (a default resource added
 * after hdfs-site.xml would turn the cache off on every DataNode). Values set in code win in any
 * order, so only a file can show it.
 */
class TestSiteFilesWin {
  @Test
  void aSiteFilesValueWinsOverMpCacheDefaults() throws Exception {
    File dir = Files.createTempDirectory("site-files-win").toFile();
    File site = new File(dir, "hdfs-site.xml");
    Configuration written = new Configuration(false);
    written.set(DFS_MPCACHE_ENABLED_KEY, "true");
    written.set(DFS_MPCACHE_CAPACITY_KEY, "4g");
    try (OutputStream out = new FileOutputStream(site)) {
      written.writeXml(out);
    }
    Configuration conf = new Configuration();
    conf.addResource(new Path(site.toURI()));
    // Every class that reads mpCache keys is loaded, with whatever it registers.
    Class.forName(MpCacheAdmin.class.getName());
    Class.forName(SlaveSettings.class.getName());
    Class.forName(MasterSettings.class.getName());
    Class.forName(MasterLinkSettings.class.getName());
    Class.forName(LocalizedSettings.class.getName());
    assertEquals("true", new Configuration(conf).get(DFS_MPCACHE_ENABLED_KEY));
    assertEquals("true", MpCacheConfiguration.withDefaults(conf).get(DFS_MPCACHE_ENABLED_KEY));
    assertEquals("4g", MpCacheConfiguration.withDefaults(conf).get(DFS_MPCACHE_CAPACITY_KEY));
    assertEquals("0", MpCacheConfiguration.withDefaults(new Configuration())
        .get(DFS_MPCACHE_CAPACITY_KEY), "the shipped default beneath");
  }
}
