package org.mpcache.locality;

import java.io.Closeable;
import java.io.IOException;
import java.net.URI;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.IOUtils;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.serializer.Deserializer;
import org.apache.hadoop.io.serializer.SerializationFactory;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.split.JobSplit.TaskSplitIndex;
import org.apache.hadoop.mapreduce.split.JobSplit.TaskSplitMetaInfo;
import org.apache.hadoop.mapreduce.split.SplitMetaInfoReader;
import org.mpcache.conf.MpCacheConfigKeys;

/**
 * Finds where each map task's input block is now: reads the job's splits from its split file
 * (as the tasks themselves will) and asks HDFS and the cache master, once per input file, for
 * the block that holds each split's first byte, as FileInputFormat places splits. Splits that
 * are not file splits (combined, custom) have no single block: their entries are null.
 */
public final class MapInputLocator implements Closeable {
  private final Configuration conf;
  private final TaskSplitMetaInfo[] splits;
  /** Block locations with the SSD holders as cached hosts, whatever fs.hdfs.impl says. */
  private final Configuration locationsConf;
  private final Map<Path, FSDataInputStream> splitFiles = new HashMap<>();
  private final Map<URI, FileSystem> fileSystems = new HashMap<>();

  private MapInputLocator(Configuration jobConf, JobID jobId) throws IOException {
    this.conf = jobConf;
    String jobDir = jobConf.get(MRJobConfig.MAPREDUCE_JOB_DIR);
    if (jobDir == null) {
      throw new IOException(MRJobConfig.MAPREDUCE_JOB_DIR + " is not set");
    }
    Path dir = new Path(jobDir);
    splits = SplitMetaInfoReader.readSplitMetaInfo(jobId, dir.getFileSystem(jobConf), jobConf,
        dir);
    locationsConf = new Configuration(jobConf);
    locationsConf.set("fs.hdfs.impl", MpCacheDistributedFileSystem.class.getName());
    locationsConf.set(MpCacheConfigKeys.MPCACHE_LOCALITY_MODE_KEY, LocalityMode.ANNOTATE.value());
  }

  /**
   * The inputs of all the job's map tasks, by task index (= split index); an entry is null when
   * that split is not one block of one file.
   */
  public static List<MapInput> locateAll(Configuration jobConf, JobID jobId) throws IOException {
    try (MapInputLocator locator = new MapInputLocator(jobConf, jobId)) {
      return locator.locateAll();
    }
  }

  private List<MapInput> locateAll() throws IOException {
    MapInput[] inputs = new MapInput[splits.length];
    Map<Path, BlockLocation[]> blocksOf = new HashMap<>();
    for (int i = 0; i < splits.length; i++) {
      Object split = readSplit(splits[i].getSplitIndex());
      Path file;
      long start;
      if (split instanceof org.apache.hadoop.mapreduce.lib.input.FileSplit newApi) {
        file = newApi.getPath();
        start = newApi.getStart();
      } else if (split instanceof org.apache.hadoop.mapred.FileSplit oldApi) {
        file = oldApi.getPath();
        start = oldApi.getStart();
      } else {
        continue;
      }
      BlockLocation[] blocks = blocksOf.get(file);
      if (blocks == null) {
        blocks = locations(file).getFileBlockLocations(file, 0, Long.MAX_VALUE);
        blocksOf.put(file, blocks);
      }
      BlockLocation block = blockAt(blocks, start);
      if (block != null) {
        inputs[i] = new MapInput(List.of(block.getHosts()), Set.of(block.getCachedHosts()));
      }
    }
    return Arrays.asList(inputs);
  }

  /** The block holding byte {@code offset} of its file, or null: blocks come in file order. */
  private static BlockLocation blockAt(BlockLocation[] blocks, long offset) {
    int low = 0;
    int high = blocks.length - 1;
    while (low <= high) {
      int middle = (low + high) >>> 1;
      BlockLocation block = blocks[middle];
      if (offset < block.getOffset()) {
        high = middle - 1;
      } else if (offset >= block.getOffset() + block.getLength()) {
        low = middle + 1;
      } else {
        return block;
      }
    }
    return null;
  }

  /** The file system of {@code file} as {@link #locationsConf} sets it up, one per cluster. */
  private FileSystem locations(Path file) throws IOException {
    URI cluster = file.getFileSystem(conf).getUri();
    FileSystem fs = fileSystems.get(cluster);
    if (fs == null) {
      // FileSystem's cache is keyed by scheme, authority and user, not by settings: this view
      // needs instances of its own.
      fs = FileSystem.newInstance(cluster, locationsConf);
      fileSystems.put(cluster, fs);
    }
    return fs;
  }

  /** The split as the task will read it (MapTask.getSplitDetails). */
  private Object readSplit(TaskSplitIndex index) throws IOException {
    Path path = new Path(index.getSplitLocation());
    FSDataInputStream in = splitFiles.get(path);
    if (in == null) {
      in = path.getFileSystem(conf).open(path);
      splitFiles.put(path, in);
    }
    in.seek(index.getStartOffset());
    String className = Text.readString(in);
    Class<?> type;
    try {
      type = conf.getClassByName(className);
    } catch (ClassNotFoundException e) {
      return null; // a split class of the job's own: not a file split
    }
    @SuppressWarnings("unchecked")
    Deserializer<Object> deserializer =
        (Deserializer<Object>) new SerializationFactory(conf).getDeserializer(type);
    if (deserializer == null) {
      return null;
    }
    deserializer.open(in);
    return deserializer.deserialize(null);
  }

  @Override
  public void close() {
    IOUtils.cleanupWithLogger(null, splitFiles.values().toArray(Closeable[]::new));
    IOUtils.cleanupWithLogger(null, fileSystems.values().toArray(Closeable[]::new));
    splitFiles.clear();
    fileSystems.clear();
  }
}
