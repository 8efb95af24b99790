package org.mpcache.bench;

import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;

import org.apache.hadoop.crypto.CryptoProtocolVersion;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.server.protocol.NamenodeProtocols;
import org.apache.hadoop.io.EnumSetWritable;

/**
 * The benchmark's namespace, made through the NameNode's RPC server object as
 * {@code NNThroughputBenchmark} makes its files: directories of given sizes, each file of one
 * block placed by the NameNode on the simulated DataNodes, and the last files of each directory
 * left open for write (their block reported received, the file never completed).
 */
final class BenchNamespace {
  static final String ROOT = "/bench";
  private static final String CLIENT = "master-benchmark";

  /** {@code directories} directories of {@code files} files each. */
  record Shape(int directories, int files) {
    /** As {@code 1000x10}. */
    static Shape parse(String spec) {
      String[] parts = spec.trim().split("x");
      if (parts.length != 2) {
        throw new IllegalArgumentException("--shapes " + spec + ": expected directories x files,"
            + " such as 1000x10");
      }
      Shape shape = new Shape(Integer.parseInt(parts[0]), Integer.parseInt(parts[1]));
      if (shape.directories() <= 0 || shape.files() <= 0) {
        throw new IllegalArgumentException("--shapes " + spec + ": both must be positive");
      }
      return shape;
    }

    @Override
    public String toString() {
      return directories + " × " + files + " files";
    }
  }

  private BenchNamespace() {
  }

  /** Parses comma-separated shapes, as {@code 1000x10,10x1000,1x100000}. */
  static List<Shape> shapes(String spec) {
    List<Shape> shapes = new ArrayList<>();
    for (String part : spec.split(",")) {
      shapes.add(Shape.parse(part));
    }
    return shapes;
  }

  /**
   * Makes the directories of each shape under {@link #ROOT}, {@code openPerDirectory} files of
   * each left open; returns the files made.
   */
  static long make(NamenodeProtocols nameNode, SimulatedDataNodes dataNodes, List<Shape> shapes,
      int openPerDirectory, short replication, long blockSize)
      throws IOException, InterruptedException {
    long made = 0;
    for (int s = 0; s < shapes.size(); s++) {
      Shape shape = shapes.get(s);
      for (int d = 0; d < shape.directories(); d++) {
        String directory = ROOT + "/shape-" + s + "/dir-" + d;
        List<String> toComplete = new ArrayList<>();
        List<ExtendedBlock> blocks = new ArrayList<>();
        List<Long> ids = new ArrayList<>();
        for (int f = 0; f < shape.files(); f++) {
          String file = directory + "/part-" + f;
          HdfsFileStatus status = nameNode.create(file, FsPermission.getFileDefault(), CLIENT,
              new EnumSetWritable<>(EnumSet.of(CreateFlag.CREATE, CreateFlag.OVERWRITE)), true,
              replication, blockSize, CryptoProtocolVersion.supported(), null, null);
          LocatedBlock block = nameNode.addBlock(file, CLIENT, null, null, status.getFileId(),
              null, null);
          dataNodes.received(block);
          if (f < shape.files() - openPerDirectory) {
            toComplete.add(file);
            blocks.add(block.getBlock());
            ids.add(status.getFileId());
          }
          made++;
        }
        // The NameNode takes the replicas' reports in the background: a file completes once
        // its block's report is in.
        for (int i = 0; i < toComplete.size(); i++) {
          while (!nameNode.complete(toComplete.get(i), CLIENT, blocks.get(i), ids.get(i))) {
            Thread.sleep(1);
          }
        }
      }
    }
    return made;
  }
}
