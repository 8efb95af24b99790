package org.mpcache.locality;

import java.io.Closeable;
import java.io.IOException;
import java.net.URI;
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
 * Finds a map task's input block and where it is now: reads the task's split from the job's
 * split file (as the task itself will) and asks HDFS and the cache master for the block that
 * holds the split's first byte, as FileInputFormat places splits. Splits that are not file
 * splits (combined, custom) have no single block: {@link #locate} returns null for them.
 */
public final class MapInputLocator implements Closeable {
  private final Configuration conf;
  private final TaskSplitMetaInfo[] splits;
  /** Block locations with the SSD holders as cached hosts, whatever fs.hdfs.impl says. */
  private final Configuration locationsConf;
  private final Map<Path, FSDataInputStream> splitFiles = new HashMap<>();
  private final Map<URI, FileSystem> fileSystems = new HashMap<>();

  public MapInputLocator(Configuration jobConf, JobID jobId) throws IOException {
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

  /** The input of map task {@code index}, or null when it is not one block of one file. */
  public MapInput locate(int index) throws IOException {
    if (index < 0 || index >= splits.length) {
      return null;
    }
    Object split = readSplit(splits[index].getSplitIndex());
    Path file;
    long start;
    if (split instanceof org.apache.hadoop.mapreduce.lib.input.FileSplit newApi) {
      file = newApi.getPath();
      start = newApi.getStart();
    } else if (split instanceof org.apache.hadoop.mapred.FileSplit oldApi) {
      file = oldApi.getPath();
      start = oldApi.getStart();
    } else {
      return null;
    }
    BlockLocation[] blocks = locations(file).getFileBlockLocations(file, start, 1);
    if (blocks.length == 0) {
      return null;
    }
    return new MapInput(List.of(blocks[0].getHosts()), Set.of(blocks[0].getCachedHosts()));
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
