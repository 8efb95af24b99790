package org.apache.hadoop.mapred;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.util.concurrent.GlobalEventExecutor;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import org.apache.hadoop.thirdparty.com.google.common.util.concurrent.ThreadFactoryBuilder;
import org.mpcache.bench.device.EmulatedDevices;
import org.mpcache.shuffle.MpCacheShuffleHandler;

/**
 * The shuffle server of emulated benchmark runs: mpCache's ({@link MpCacheShuffleHandler}, which
 * is Hadoop's {@link ShuffleHandler} placing applications' files on the SSD local dir first when
 * a cache slave keeps one), except that every map output partition a reducer fetches is first
 * read off the emulated device that owns its local dir (how, and why off the event loop: {@link DeviceChargingShuffleChannelHandler}).
 * A NodeManager runs it as its {@code yarn.nodemanager.aux-services.mapreduce_shuffle.class},
 * with the emulation keys naming the devices of the node's local dirs in its configuration.
 *
 * <p>Seam: {@code ShuffleChannelHandler.sendMapOutput}, the protected method that sends one
 * partition, given its file and index record. Hadoop's {@code ShuffleChannelInitializer} builds
 * the stock handler into each connection's pipeline, and the one per-connection callback a
 * subclass reaches is the channel group of the handlers' context: the stock
 * {@code channelActive} adds every accepted connection to it. This service's group swaps the
 * charging handler in there. Both classes live in Hadoop's package because the handler's
 * constructor and {@code MapOutputInfo} are package-private; TestDeviceChargingShuffleHandler
 * fails if these internals change.
 *
 * <p>Index files are not charged: a few dozen bytes per map, read once into Hadoop's
 * {@link IndexCache}, whose misses are not visible from outside it.
 */
public class DeviceChargingShuffleHandler extends MpCacheShuffleHandler {
  private final ExecutorService deviceReads = Executors.newCachedThreadPool(
      new ThreadFactoryBuilder().setDaemon(true).setNameFormat("shuffle-device-read-%d").build());
  private ShuffleChannelHandlerContext handlerContext;
  private EmulatedDevices devices;

  @Override
  protected ShuffleChannelHandlerContext createHandlerContext() {
    ShuffleChannelHandlerContext stock = super.createHandlerContext();
    devices = EmulatedDevices.of(stock.conf);
    handlerContext = new ShuffleChannelHandlerContext(stock.conf, stock.userRsrc,
        stock.secretManager, stock.pathCache, stock.indexCache, stock.metrics,
        new ChargingHandlerInstaller());
    return handlerContext;
  }

  @Override
  protected void serviceStop() throws Exception {
    // Reads under way finish their device time; their sends then fail on the closed channels.
    deviceReads.shutdown();
    super.serviceStop();
  }

  /**
   * The handlers' channel group: puts the charging handler in place of the stock one in each
   * connection the stock handler adds, then keeps the connection in the service's own group,
   * which the service closes when it stops (this group only forwards to it).
   */
  private final class ChargingHandlerInstaller extends DefaultChannelGroup {
    ChargingHandlerInstaller() {
      super("shuffle-connections", GlobalEventExecutor.INSTANCE);
    }

    @Override
    public boolean add(Channel connection) {
      ChannelPipeline pipeline = connection.pipeline();
      ChannelHandlerContext stock = pipeline.context(ShuffleChannelHandler.class);
      if (stock == null) {
        throw new IllegalStateException("no ShuffleChannelHandler in the pipeline of shuffle "
            + "connection " + connection + ": this Hadoop version builds it otherwise");
      }
      pipeline.replace(stock.handler(), stock.name(),
          new DeviceChargingShuffleChannelHandler(handlerContext, devices, deviceReads));
      return allChannels.add(connection);
    }

    @Override
    public int size() {
      return allChannels.size();
    }
  }
}
