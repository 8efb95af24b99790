package org.mpcache.tools;

import java.io.IOException;
import java.io.PrintStream;
import java.util.Map;

import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.tools.TableListing;
import org.mpcache.conf.MpCacheConfiguration;
import org.mpcache.conf.MpCacheKeyRegistry;

/**
 * {@code -getconf [key]}: the value of an mpCache key as the daemons read it, asking no master
 * ({@code hdfs getconf} loads no mpcache-default.xml); without a key, every key's. A name that is
 * not an mpCache key exits 1 rather than printing empty, so that a misspelt name is not taken for
 * an unset one.
 */
final class GetConfCommand extends VerbCommand {
  GetConfCommand(PrintStream out, PrintStream err) {
    super(Option.builder("getconf").hasArg().optionalArg(true).argName("key").desc("the value"
        + " the daemons and this tool read for an mpCache key (site files over"
        + " mpcache-default.xml); without a key, every key").build(), out, err, JSON);
  }

  @Override
  int run(CommandLine line, Configuration conf, CacheMasters masters) throws IOException {
    String key = argument(line);
    if (key != null && !MpCacheKeyRegistry.isKnown(key)) {
      err.println("mpcacheadmin: " + key + " is not an mpCache key (hdfs mpcacheadmin -getconf"
          + " lists them; hdfs getconf -confKey reads Hadoop's own)");
      return 1;
    }
    Configuration effective = MpCacheConfiguration.withDefaults(conf);
    Map<String, String> values = key == null ? MpCacheKeyRegistry.effectiveValues(effective)
        : Map.of(key, effective.get(key, ""));
    if (line.hasOption(JSON)) {
      printJson(values);
    } else if (key != null) {
      out.println(values.get(key));
    } else {
      TableListing table = new TableListing.Builder().addField("Key").addField("Value").build();
      values.forEach(table::addRow);
      out.print(table);
    }
    return 0;
  }
}
