package org.apache.hadoop.mapred;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelPromise;
import io.netty.util.concurrent.PromiseNotifier;

import java.io.IOException;
import java.util.concurrent.Executor;

import org.mpcache.bench.device.Device;
import org.mpcache.bench.device.EmulatedDevices;
import org.mpcache.bench.device.IoCause;

/**
 * One shuffle connection's handler: Hadoop's, except that a map output partition on an emulated
 * device is read off that device (its {@code partLength} bytes, a stream of their own) before
 * Hadoop's own {@code sendMapOutput} sends it.
 *
 * <p>The read waits on a thread of {@code deviceReads}, not on the Netty event loop, which keeps
 * serving the other connections it owns: Hadoop sends with sendfile while its readahead threads
 * read ahead of it, so a busy disk delays a partition without stalling its event loop. The read
 * comes in requests of {@code mapreduce.shuffle.transfer.buffer.size} (the reads Hadoop makes
 * when it may not use sendfile), so other streams on the device interleave with it as with any
 * reader. Read and send do not overlap here as readahead and sendfile do; next to a device, the
 * send over loopback is short.
 */
class DeviceChargingShuffleChannelHandler extends ShuffleChannelHandler {
  private final EmulatedDevices devices;
  private final Executor deviceReads;
  private final int readBytes;

  DeviceChargingShuffleChannelHandler(ShuffleChannelHandlerContext context,
      EmulatedDevices devices, Executor deviceReads) {
    super(context);
    this.devices = devices;
    this.deviceReads = deviceReads;
    this.readBytes = context.shuffleBufferSize;
  }

  @Override
  protected ChannelFuture sendMapOutput(Channel ch, String user, String mapId, int reduce,
      MapOutputInfo mapOutputInfo) throws IOException {
    Device device = devices.deviceFor(mapOutputInfo.mapOutputFileName.toUri().getPath());
    if (device == null) {
      return super.sendMapOutput(ch, user, mapId, reduce, mapOutputInfo);
    }
    ChannelPromise sent = ch.newPromise();
    deviceReads.execute(() -> {
      try {
        read(device, mapOutputInfo.indexRecord.partLength);
        ch.eventLoop().execute(() -> send(ch, user, mapId, reduce, mapOutputInfo, sent));
      } catch (RuntimeException e) {
        sent.setFailure(e);
      }
    });
    return sent;
  }

  private void read(Device device, long bytes) {
    Device.Meter meter = device.meter(IoCause.SHUFFLE_SERVE);
    for (long left = bytes; left > 0; left -= readBytes) {
      meter.charge(Math.min(left, readBytes));
    }
    meter.flush();
  }

  /** Hadoop's send, on the event loop; {@code sent} completes with it. */
  private void send(Channel ch, String user, String mapId, int reduce,
      MapOutputInfo mapOutputInfo, ChannelPromise sent) {
    try {
      super.sendMapOutput(ch, user, mapId, reduce, mapOutputInfo)
          .addListener(new PromiseNotifier<>(sent));
    } catch (IOException | RuntimeException e) {
      sent.setFailure(e);
    }
  }
}
