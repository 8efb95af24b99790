package org.mpcache.tools;

import static org.apache.hadoop.tools.TableListing.Justification.RIGHT;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.PrintStream;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.tools.TableListing;
import org.mpcache.protocol.MpCacheMasterProtocol;

/**
 * {@code -locations <path>}: each block of an HDFS file with the DataNodes holding its replicas
 * and those the active master says hold it on SSD. Exit 1 when the file is not in HDFS or does
 * not exist.
 */
final class LocationsCommand extends VerbCommand {
  LocationsCommand(PrintStream out, PrintStream err) {
    super(Option.builder("locations").hasArg().argName("path").desc("per block of an HDFS"
        + " file: its HDD replicas and its SSD copies").build(), out, err, TIMEOUT);
  }

  @Override
  int run(CommandLine line, Configuration conf, CacheMasters masters) {
    Path file = new Path(argument(line));
    return masters.askActive((address, master) -> printLocations(master, file, conf));
  }

  private int printLocations(MpCacheMasterProtocol master, Path file, Configuration conf)
      throws IOException {
    FileSystem fs = file.getFileSystem(conf);
    if (!(fs instanceof DistributedFileSystem dfs)) {
      err.println("mpcacheadmin: " + file + " is not in HDFS (" + fs.getUri() + ")");
      return 1;
    }
    String path = dfs.makeQualified(file).toUri().getPath();
    List<LocatedBlock> blocks;
    try {
      blocks = dfs.getClient().getLocatedBlocks(path, 0, dfs.getFileStatus(file).getLen())
          .getLocatedBlocks();
    } catch (FileNotFoundException e) {
      err.println("mpcacheadmin: no such file " + file);
      return 1;
    }
    List<List<String>> onSsd = master.cachedOn(
        blocks.stream().mapToLong(block -> block.getBlock().getBlockId()).toArray());
    out.printf("%s: %d blocks, %d with an SSD copy%n%n", path, blocks.size(),
        onSsd.stream().filter(holders -> !holders.isEmpty()).count());
    TableListing table = new TableListing.Builder().addField("Offset", RIGHT)
        .addField("Length", RIGHT).addField("Block").addField("Replicas").addField("SSD copies")
        .build();
    for (int i = 0; i < blocks.size(); i++) {
      LocatedBlock block = blocks.get(i);
      Map<String, String> hosts = new HashMap<>();
      for (DatanodeInfo replica : block.getLocations()) {
        hosts.put(replica.getDatanodeUuid(), replica.getXferAddr());
      }
      table.addRow("" + block.getStartOffset(), size(block.getBlockSize()),
          block.getBlock().getBlockName(),
          String.join(",", hosts.values().stream().sorted().toList()),
          String.join(",", onSsd.get(i).stream().map(uuid -> hosts.getOrDefault(uuid, uuid))
              .sorted().toList()));
    }
    out.print(table);
    return 0;
  }
}
