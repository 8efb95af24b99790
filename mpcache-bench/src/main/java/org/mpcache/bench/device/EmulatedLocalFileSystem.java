package org.mpcache.bench.device;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSInputStream;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.permission.FsPermission;

/**
 * The local file system as {@code fs.file.impl} of emulated runs: files under an emulated
 * device's dirs cost that device's time. MapReduce writes and reads its intermediate data (map
 * spills and outputs, reduce-side shuffle files and merges) through this file system's raw
 * layer, so they queue on the same emulated HDD as the node's HDFS blocks.
 */
public class EmulatedLocalFileSystem extends LocalFileSystem {
  public EmulatedLocalFileSystem() {
    super(new Raw());
  }

  /** The raw layer: wraps streams of files on emulated devices. */
  public static class Raw extends RawLocalFileSystem {
    private EmulatedDevices devices = EmulatedDevices.of(new Configuration(false));

    @Override
    public void initialize(URI uri, Configuration conf) throws IOException {
      super.initialize(uri, conf);
      devices = EmulatedDevices.of(conf);
    }

    @Override
    public FSDataInputStream open(Path f, int bufferSize) throws IOException {
      FSDataInputStream in = super.open(f, bufferSize);
      Device device = devices.deviceFor(pathToFile(f).getPath());
      return device == null ? in : new FSDataInputStream(new DeviceInput(in, device));
    }

    @Override
    protected OutputStream createOutputStreamWithMode(Path f, boolean append,
        FsPermission permission) throws IOException {
      OutputStream out = super.createOutputStreamWithMode(f, append, permission);
      Device device = devices.deviceFor(pathToFile(f).getPath());
      return device == null ? out : new DeviceOutput(out, device);
    }
  }

  /** Reads that cost the device the bytes they return. */
  private static final class DeviceInput extends FSInputStream {
    private final FSDataInputStream in;
    private final Device.Meter meter;

    DeviceInput(FSDataInputStream in, Device device) {
      this.in = in;
      this.meter = device.meter(IoCause.LOCAL_READ);
    }

    @Override
    public int read() throws IOException {
      int b = in.read();
      meter.charge(b < 0 ? 0 : 1);
      return b;
    }

    @Override
    public int read(byte[] buffer, int off, int len) throws IOException {
      int n = in.read(buffer, off, len);
      meter.charge(n);
      return n;
    }

    @Override
    public int read(long position, byte[] buffer, int off, int len) throws IOException {
      int n = in.read(position, buffer, off, len);
      meter.charge(n);
      return n;
    }

    @Override
    public void seek(long pos) throws IOException {
      in.seek(pos);
    }

    @Override
    public long getPos() throws IOException {
      return in.getPos();
    }

    @Override
    public boolean seekToNewSource(long targetPos) {
      return false;
    }

    @Override
    public int available() throws IOException {
      return in.available();
    }

    @Override
    public void close() throws IOException {
      meter.flush();
      in.close();
    }
  }

  /** Writes that cost the device their bytes. */
  private static final class DeviceOutput extends FilterOutputStream {
    private final Device.Meter meter;

    DeviceOutput(OutputStream out, Device device) {
      super(out);
      this.meter = device.meter(IoCause.LOCAL_WRITE);
    }

    @Override
    public void write(int b) throws IOException {
      out.write(b);
      meter.charge(1);
    }

    @Override
    public void write(byte[] buffer, int off, int len) throws IOException {
      out.write(buffer, off, len);
      meter.charge(len);
    }

    @Override
    public void close() throws IOException {
      meter.flush();
      super.close();
    }
  }
}
