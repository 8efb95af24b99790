package org.mpcache.shuffle;

import java.io.File;
import java.io.IOException;
import java.util.List;
import java.util.Random;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalDirAllocator;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.MapOutputFile;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.TaskID;
import org.apache.hadoop.util.DiskChecker.DiskErrorException;
import org.mpcache.conf.MpCacheConfigKeys;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A task's intermediate files, in the layout of YARN's own {@code YarnOutputFiles} (so the
 * NodeManager's shuffle service finds map outputs unchanged): each new file goes to the SSD dir
 * when the node's cache slave grants its size, to the HDD dirs otherwise (round-robin, or in
 * proportion to their bandwidth when {@code mapreduce.mpcache.local-dirs.bandwidth} gives it).
 * Reads search every local dir, wherever a file was written.
 */
public class SsdOutputFiles extends MapOutputFile {
  private static final Logger LOG = LoggerFactory.getLogger(SsdOutputFiles.class);

  /**
   * Internal, not configuration keys: the contexts of this class's two allocators, which it sets
   * itself in each task's configuration to the dirs each allocator chooses among.
   */
  private static final String SSD_DIRS = "mpcache.shuffle.ssd.local.dirs";
  private static final String HDD_DIRS = "mpcache.shuffle.hdd.local.dirs";
  /** The layout of YarnOutputFiles; the shuffle service looks for map outputs there. */
  private static final String OUTPUT = "output";
  private static final String MAP_OUTPUT = "file.out";
  private static final String INDEX_SUFFIX = ".index";
  private static final String REDUCE_INPUT_PATTERN = "map_%d.out";
  private static final String SPILL_FILE_PATTERN = "%s_spill_%d.out";
  private static final String SPILL_INDEX_FILE_PATTERN = SPILL_FILE_PATTERN + ".index";

  private final LocalDirAllocator allDirs = new LocalDirAllocator(MRConfig.LOCAL_DIR);
  private final LocalDirAllocator ssdDirs = new LocalDirAllocator(SSD_DIRS);
  private final LocalDirAllocator hddDirs = new LocalDirAllocator(HDD_DIRS);
  private JobConf conf;
  private Configuration allocation;
  private LocalDirRoles roles;
  private SsdSpace space;
  /** Bandwidth of each HDD dir when configured; null: Hadoop's round-robin. */
  private double[] hddBandwidth;
  private final Random draws = new Random();

  @Override
  public void setConf(Configuration conf) {
    this.conf = conf instanceof JobConf job ? job : new JobConf(conf);
    this.roles = LocalDirRoles.of(this.conf.getTrimmedStrings(MRConfig.LOCAL_DIR));
    this.allocation = new Configuration(this.conf);
    allocation.setStrings(SSD_DIRS, roles.ssd().toArray(new String[0]));
    allocation.setStrings(HDD_DIRS, (roles.hdd().isEmpty() ? roles.ssd() : roles.hdd())
        .toArray(new String[0]));
    this.space = roles.slaveAddress() == null ? null
        : SsdSpace.forAttempt(attemptId(), roles.slaveAddress(), this.conf);
    this.hddBandwidth = null;
    String[] bandwidths = this.conf.getTrimmedStrings(
        MpCacheConfigKeys.MAPREDUCE_MPCACHE_LOCAL_DIRS_BANDWIDTH_KEY);
    if (bandwidths.length > 0 && !roles.hdd().isEmpty()) {
      try {
        hddBandwidth = BandwidthWeights.of(roles.hdd(), bandwidths);
      } catch (IllegalArgumentException e) {
        LOG.warn("mpCache: HDD local dirs are used round-robin: {}", e.getMessage());
      }
    }
    LOG.info("mpCache: intermediate files of {} go to SSD dirs {} when granted, else to {}",
        attemptId(), roles.ssd(), roles.hdd());
  }

  @Override
  public Configuration getConf() {
    return conf;
  }

  /** Where a new file of about {@code size} bytes goes: the SSD if granted, else the HDDs. */
  public Path forWrite(String path, long size) throws IOException {
    if (space != null && size >= 0 && space.reserve(size)) {
      try {
        return ssdDirs.getLocalPathForWrite(path, size, allocation, true);
      } catch (DiskErrorException e) {
        LOG.warn("mpCache: no room on the SSD dirs {} for {} ({}); writing it to HDD",
            roles.ssd(), path, e.getMessage());
      }
    }
    if (hddBandwidth != null) {
      Path chosen = byBandwidth(path, size);
      if (chosen != null) {
        return chosen;
      }
    }
    return hddDirs.getLocalPathForWrite(path, size, allocation, true);
  }

  /**
   * An HDD dir with room, chosen in proportion to its bandwidth ({@link BandwidthWeights}), or
   * null when none has room (the allocator then says so).
   */
  private Path byBandwidth(String path, long size) throws IOException {
    List<String> dirs = roles.hdd();
    boolean[] roomy = new boolean[dirs.size()];
    for (int i = 0; i < roomy.length; i++) {
      roomy[i] = new File(dirs.get(i)).getUsableSpace() > Math.max(0, size);
    }
    int chosen = BandwidthWeights.choose(hddBandwidth, roomy, draws.nextDouble());
    if (chosen < 0) {
      return null;
    }
    // As LocalDirAllocator does: the path is relative to the chosen dir even when given absolute
    // (the reduce side's on-disk merger names its output after an input's absolute path).
    Path file = new Path(dirs.get(chosen), path.startsWith("/") ? path.substring(1) : path);
    FileSystem.getLocal(conf).mkdirs(file.getParent());
    return file;
  }

  private Path toRead(String path) throws IOException {
    return allDirs.getLocalPathToRead(path, conf);
  }

  private String attemptId() {
    return conf.get(MRJobConfig.TASK_ATTEMPT_ID);
  }

  private String outputFile() {
    return OUTPUT + Path.SEPARATOR + attemptId() + Path.SEPARATOR + MAP_OUTPUT;
  }

  private String indexFile() {
    return outputFile() + INDEX_SUFFIX;
  }

  private String spillFile(int spillNumber) {
    return String.format(SPILL_FILE_PATTERN, attemptId(), spillNumber);
  }

  private String spillIndexFile(int spillNumber) {
    return String.format(SPILL_INDEX_FILE_PATTERN, attemptId(), spillNumber);
  }

  @Override
  public Path getOutputFile() throws IOException {
    return toRead(outputFile());
  }

  @Override
  public Path getOutputFileForWrite(long size) throws IOException {
    return forWrite(outputFile(), size);
  }

  /** Beside {@code existing} (spill 0, renamed into place when it is the only spill). */
  @Override
  public Path getOutputFileForWriteInVolume(Path existing) {
    return new Path(existing.getParent(), outputFile());
  }

  @Override
  public Path getOutputIndexFile() throws IOException {
    return toRead(indexFile());
  }

  @Override
  public Path getOutputIndexFileForWrite(long size) throws IOException {
    return forWrite(indexFile(), size);
  }

  @Override
  public Path getOutputIndexFileForWriteInVolume(Path existing) {
    return new Path(existing.getParent(), indexFile());
  }

  @Override
  public Path getSpillFile(int spillNumber) throws IOException {
    return toRead(spillFile(spillNumber));
  }

  @Override
  public Path getSpillFileForWrite(int spillNumber, long size) throws IOException {
    return forWrite(spillFile(spillNumber), size);
  }

  @Override
  public Path getSpillIndexFile(int spillNumber) throws IOException {
    return toRead(spillIndexFile(spillNumber));
  }

  @Override
  public Path getSpillIndexFileForWrite(int spillNumber, long size) throws IOException {
    return forWrite(spillIndexFile(spillNumber), size);
  }

  /** Only the local job runner reads map outputs as reduce inputs by number. */
  @Override
  public Path getInputFile(int mapId) {
    throw new UnsupportedOperationException("only used by the local job runner");
  }

  @Override
  public Path getInputFileForWrite(TaskID mapId, long size) throws IOException {
    return forWrite(OUTPUT + Path.SEPARATOR + attemptId() + Path.SEPARATOR
        + String.format(REDUCE_INPUT_PATTERN, mapId.getId()), size);
  }

  /** YARN deletes the application's dirs when it ends. */
  @Override
  public void removeAll() {
    throw new UnsupportedOperationException("YARN deletes the application's local dirs");
  }

  /**
   * A copy of the task's configuration whose local file system moves a file to an HDD dir when
   * the SSD fills as it is written ({@link SsdFailoverFileSystem}), for the SSD dirs this places
   * files on.
   */
  public JobConf failoverConf() {
    return SsdFailoverFileSystem.forTask(conf, roles);
  }

  /**
   * From now on in this JVM, the passes of Hadoop's {@code Merger} (map and reduce side) are
   * placed as this places files ({@link MergerPasses}).
   */
  public void placeMergerPasses() {
    MergerPasses.placeBy(mergeAllocator());
  }

  /** An allocator for the reduce side's on-disk merges that places files as this does. */
  public LocalDirAllocator mergeAllocator() {
    return new LocalDirAllocator(MRConfig.LOCAL_DIR) {
      @Override
      public Path getLocalPathForWrite(String path, long size, Configuration ignored,
          boolean checkWrite) throws IOException {
        return forWrite(path, size);
      }
    };
  }
}
