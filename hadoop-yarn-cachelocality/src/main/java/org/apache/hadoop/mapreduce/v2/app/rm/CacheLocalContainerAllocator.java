package org.apache.hadoop.mapreduce.v2.app.rm;

import static org.mpcache.conf.MpCacheConfigKeys.MPCACHE_LOCALITY_CACHE_WAIT_DEFAULT_MS;
import static org.mpcache.conf.MpCacheConfigKeys.MPCACHE_LOCALITY_CACHE_WAIT_KEY;
import static org.mpcache.conf.MpCacheConfigKeys.MPCACHE_LOCALITY_REPLICA_WAIT_DEFAULT_MS;
import static org.mpcache.conf.MpCacheConfigKeys.MPCACHE_LOCALITY_REPLICA_WAIT_KEY;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.JobCounter;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.TypeConverter;
import org.apache.hadoop.mapreduce.v2.api.records.TaskAttemptId;
import org.apache.hadoop.mapreduce.v2.api.records.TaskType;
import org.apache.hadoop.mapreduce.v2.app.AppContext;
import org.apache.hadoop.mapreduce.v2.app.client.ClientService;
import org.apache.hadoop.mapreduce.v2.app.job.event.JobEvent;
import org.apache.hadoop.mapreduce.v2.app.job.event.JobEventType;
import org.apache.hadoop.mapreduce.v2.app.job.event.JobCounterUpdateEvent;
import org.apache.hadoop.mapreduce.v2.app.job.event.TaskAttemptContainerAssignedEvent;
import org.apache.hadoop.mapreduce.v2.app.rm.preemption.AMPreemptionPolicy;
import org.apache.hadoop.net.NodeBase;
import org.apache.hadoop.util.Time;
import org.apache.hadoop.util.concurrent.SubjectInheritingThread;
import org.apache.hadoop.yarn.api.protocolrecords.AllocateResponse;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.NMToken;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.client.api.NMTokenCache;
import org.apache.hadoop.yarn.exceptions.YarnException;
import org.apache.hadoop.yarn.util.RackResolver;
import org.apache.hadoop.yarn.util.resource.Resources;
import org.mpcache.conf.ConfValues;
import org.mpcache.conf.InvalidSettingException;
import org.mpcache.conf.MpCacheConfigKeys;
import org.mpcache.locality.CacheLocalityCounter;
import org.mpcache.locality.CacheWaits;
import org.mpcache.locality.MapInput;
import org.mpcache.locality.MapInputLocator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The MapReduce application master's container allocator, placing map tasks on the nodes that
 * hold their input block on SSD first. A map whose block is on some SSD asks YARN for those
 * nodes only, strictly, for at most {@value MpCacheConfigKeys#MPCACHE_LOCALITY_CACHE_WAIT_KEY}; then for its replicas' nodes,
 * strictly, for at most {@value MpCacheConfigKeys#MPCACHE_LOCALITY_REPLICA_WAIT_KEY}; then it may run anywhere, as YARN places a
 * stock map. Waiting is the allocator's: YARN's delay scheduling counts missed scheduling
 * opportunities per job, not time, and with asynchronous scheduling (Hadoop 3.5's default) they
 * run out in milliseconds.
 *
 * <p>Waiting maps are kept out of the stock allocator's book-keeping, which hands a container to
 * any map of the rack when no map names its host: only a container on one of its SSD nodes goes
 * to a waiting map. While any map waits, no map of the job is placed off its requested nodes
 * (YARN's strictness is per priority, not per task), so the longest extra wait of any map is the
 * sum of the two waits after the last map asked: nothing starves.
 *
 * <p>The job's map inputs are looked up once, in a thread of its own, when its first map asks;
 * the maps that ask before the answer comes are held and handed over together, so they reach
 * YARN in one request as a stock job's maps do. Located one at a time on the allocator's thread,
 * a job's maps went out over several heartbeats and drew surplus containers, suspected of
 * placing more maps on the node of their block than stock Hadoop does
 * (docs/benchmarks.md, "A miss costs more under mpCache than under stock"). Without an answer in
 * {@value #LOOKUP_PATIENCE_MILLIS} ms, held maps go to their split hosts.
 *
 * <p>In Hadoop's package because the stock allocator keeps its request book-keeping
 * package-private; it changes nothing there but through the methods the stock allocator uses.
 */
public class CacheLocalContainerAllocator extends RMContainerAllocator {
  private static final Logger LOG = LoggerFactory.getLogger(CacheLocalContainerAllocator.class);
  /** How long held maps wait for their inputs' lookup: five times the master's RPC timeout. */
  static final long LOOKUP_PATIENCE_MILLIS = 10_000;

  /** A map waiting for one of its SSD nodes. */
  private record Waiting(ContainerRequest onSsd, ContainerRequestEvent anyReplica,
      MapInput input) {
  }

  /** Maps waiting for an SSD node, out of the stock allocator's book-keeping. */
  private CacheWaits<TaskAttemptId, Waiting> waiting;
  /** Maps done waiting for an SSD node, waiting for a replica's node. */
  private CacheWaits<TaskAttemptId, MapInput> replicaWaits;
  /** Maps' first requests that came while the job's map inputs were looked up. */
  private final List<ContainerRequestEvent> held = new ArrayList<>();
  /** When the lookup of the job's map inputs began (monotonic), or -1 before it did. */
  private long lookupStartMillis = -1;
  /** Maps the stock allocator places whose input is known, until they get a container. */
  private final Map<TaskAttemptId, MapInput> placedByStock = new HashMap<>();
  /** The rack and off-switch requests of maps sent to YARN, whose strictness is switched. */
  private final Map<String, ResourceRequest> mapRelaxableRequests = new HashMap<>();
  private boolean strict;
  /** The job's map inputs by task index, once looked up: empty if they cannot be. */
  private List<MapInput> inputs;

  public CacheLocalContainerAllocator(ClientService clientService, AppContext context,
      AMPreemptionPolicy preemptionPolicy) {
    super(clientService, context, preemptionPolicy);
  }

  @Override
  protected void serviceInit(Configuration conf) throws Exception {
    super.serviceInit(conf);
    waiting = new CacheWaits<>(waitMillis(conf, MPCACHE_LOCALITY_CACHE_WAIT_KEY,
        MPCACHE_LOCALITY_CACHE_WAIT_DEFAULT_MS));
    replicaWaits =
        new CacheWaits<>(waitMillis(conf,
        MPCACHE_LOCALITY_REPLICA_WAIT_KEY, MPCACHE_LOCALITY_REPLICA_WAIT_DEFAULT_MS));
  }

  private static long waitMillis(Configuration conf, String key, long defaultMillis) {
    try {
      return ConfValues.positiveMillis(conf, key, defaultMillis);
    } catch (InvalidSettingException e) {
      LOG.error("mpCache: {}; waiting {} ms instead", e.getMessage(), defaultMillis);
      return defaultMillis;
    }
  }

  @Override
  protected synchronized void handleEvent(ContainerAllocatorEvent event) {
    TaskAttemptId attempt = event.getAttemptID();
    if (event.getType() == ContainerAllocator.EventType.CONTAINER_REQ) {
      ContainerRequestEvent request = (ContainerRequestEvent) event;
      if (attempt.getTaskId().getTaskType() == TaskType.MAP
          && !request.getEarlierAttemptFailed()) {
        if (inputs != null) {
          request(request);
        } else {
          held.add(request);
          if (lookupStartMillis < 0) {
            lookUpInputs(attempt);
          }
        }
        return;
      }
    } else if (event.getType() == ContainerAllocator.EventType.CONTAINER_DEALLOCATE) {
      if (held.removeIf(request -> request.getAttemptID().equals(attempt))) {
        return;
      }
      placedByStock.remove(attempt);
      replicaWaits.end(attempt);
      Waiting gone = waiting.end(attempt);
      if (gone != null) {
        decContainerReq(gone.onSsd());
        return;
      }
    }
    super.handleEvent(event);
  }

  /** Asks for the map's SSD nodes if any (and it waits), else for all its replicas' nodes. */
  private void request(ContainerRequestEvent request) {
    TaskAttemptId attempt = request.getAttemptID();
    int index = attempt.getTaskId().getId();
    MapInput input = index < inputs.size() ? inputs.get(index) : null;
    if (input == null) {
      super.handleEvent(request);
      return;
    }
    LOG.debug("mpCache: {} reads a block with replicas on {}, on SSD at {}", attempt,
        input.replicaHosts(), input.ssdHosts());
    ContainerRequestEvent anyReplica = withHosts(request, input.replicaHosts());
    List<String> ssdHosts = input.ssdHosts().stream().filter(h -> !isNodeBlacklisted(h)).toList();
    if (ssdHosts.isEmpty()) {
      placedByStock.put(attempt, input);
      super.handleEvent(anyReplica);
      return;
    }
    // The stock path checks the size against the cluster's largest container, records it and
    // sends the asks; then the map leaves the stock book-keeping, its asks stay.
    super.handleEvent(withHosts(request, ssdHosts));
    ContainerRequest onSsd = getScheduledRequests().maps.remove(attempt);
    if (onSsd != null) {
      waiting.start(attempt, new Waiting(onSsd, anyReplica, input), Time.monotonicNow());
    }
  }

  /** Looks up the job's map inputs in a thread of its own, then hands over the held maps. */
  private void lookUpInputs(TaskAttemptId attempt) {
    lookupStartMillis = Time.monotonicNow();
    Configuration conf = getConfig();
    JobID job = TypeConverter.fromYarn(attempt.getTaskId().getJobId());
    // As the allocator's own threads: the lookup reads the job's files as the job's user.
    Thread lookup = new SubjectInheritingThread(() -> {
      List<MapInput> found = List.of();
      try {
        found = MapInputLocator.locateAll(conf, job);
      } catch (IOException | RuntimeException e) {
        // Placement is an optimisation: the job runs with its split's hosts, as stock.
        LOG.error("mpCache: cannot tell where map inputs are ({}); maps go to their split hosts",
            e.toString());
      } finally {
        lookedUp(found);
      }
    }, "mpCache map input lookup");
    lookup.setDaemon(true);
    lookup.start();
  }

  private synchronized void lookedUp(List<MapInput> found) {
    if (inputs == null) { // else the held maps went to their split hosts without waiting for it
      inputs = found;
      handOverHeldMaps();
    }
  }

  /** Held maps whose lookup outlasted its patience go to their split hosts. */
  private void stopWaitingForLookup() {
    if (!held.isEmpty() && Time.monotonicNow() - lookupStartMillis > LOOKUP_PATIENCE_MILLIS) {
      LOG.warn("mpCache: no answer in {} ms on where the map inputs are; maps go to their split"
          + " hosts", LOOKUP_PATIENCE_MILLIS);
      inputs = List.of();
      handOverHeldMaps();
    }
  }

  /** Asks for the held maps, together. */
  private void handOverHeldMaps() {
    try {
      while (!held.isEmpty()) {
        request(held.remove(0));
      }
    } catch (Throwable t) {
      // As the stock allocator's event thread does: a map that cannot be asked for ends the job.
      LOG.error("mpCache: asking for the held maps failed", t);
      eventHandler.handle(new JobEvent(getJob().getID(), JobEventType.INTERNAL_ERROR));
    }
  }

  private static ContainerRequestEvent withHosts(ContainerRequestEvent request,
      List<String> hosts) {
    Set<String> racks = new LinkedHashSet<>();
    for (String host : hosts) {
      racks.add(RackResolver.resolve(host).getNetworkLocation());
    }
    return new ContainerRequestEvent(request.getAttemptID(), request.getCapability(),
        hosts.toArray(String[]::new), racks.toArray(String[]::new));
  }

  @Override
  protected synchronized void heartbeat() throws Exception {
    stopWaitingForLookup();
    handOverExpiredWaits();
    super.heartbeat();
    countMapsPlacedByStock();
  }

  /**
   * Waiting maps are pending maps too: reduces ramp up as if the stock allocator held them; and
   * none does while maps are held, since until the first map is handed over the stock allocator
   * does not know a map's size and would ramp up every reduce (with no slow start).
   */
  @Override
  public void scheduleReduces(int totalMaps, int completedMaps, int scheduledMaps,
      int scheduledReduces, int assignedMaps, int assignedReduces, Resource mapResourceReqt,
      Resource reduceResourceReqt, int numPendingReduces, float maxReduceRampupLimit,
      float reduceSlowStart) {
    if (!held.isEmpty()) {
      return;
    }
    super.scheduleReduces(totalMaps, completedMaps, scheduledMaps + waiting.size(),
        scheduledReduces, assignedMaps, assignedReduces, mapResourceReqt, reduceResourceReqt,
        numPendingReduces, maxReduceRampupLimit, reduceSlowStart);
  }

  /** Maps done waiting ask for all their replicas' nodes, through the stock allocator. */
  private void handOverExpiredWaits() {
    long now = Time.monotonicNow();
    replicaWaits.expire(now).forEach((attempt, input) -> LOG.info(
        "mpCache: {} waited {} ms for a node with a replica of its input ({}); any node now",
        attempt, replicaWaits.waitMillis(), input.replicaHosts()));
    waiting.expire(now).forEach((attempt, expired) -> {
      decContainerReq(expired.onSsd());
      super.handleEvent(expired.anyReplica());
      placedByStock.put(attempt, expired.input());
      replicaWaits.start(attempt, expired.input(), now);
      count(attempt, CacheLocalityCounter.CACHE_WAIT_EXPIRED_MAPS);
      LOG.info("mpCache: {} waited {} ms for a node with its input on SSD ({}); asking for {}",
          attempt, waiting.waitMillis(), expired.input().ssdHosts(),
          List.of(expired.anyReplica().getHosts()));
    });
  }

  private void countMapsPlacedByStock() {
    Map<TaskAttemptId, Container> assigned = getAssignedRequests().maps;
    for (Iterator<Map.Entry<TaskAttemptId, MapInput>> it = placedByStock.entrySet().iterator();
        it.hasNext();) {
      Map.Entry<TaskAttemptId, MapInput> entry = it.next();
      Container container = assigned.get(entry.getKey());
      if (container != null) {
        it.remove();
        replicaWaits.end(entry.getKey());
        countPlacement(entry.getKey(), entry.getValue(), container);
      }
    }
  }

  private void countPlacement(TaskAttemptId attempt, MapInput input, Container container) {
    if (input.onSsd()) {
      count(attempt, CacheLocalityCounter.SSD_INPUT_MAPS);
      if (input.placementOn(container.getNodeId().getHost())
          == MapInput.Placement.CACHE_LOCAL) {
        count(attempt, CacheLocalityCounter.CACHE_LOCAL_MAPS);
      }
    }
  }

  private void count(TaskAttemptId attempt, Enum<?> counter) {
    JobCounterUpdateEvent update = new JobCounterUpdateEvent(attempt.getTaskId().getJobId());
    update.addCounterUpdate(counter, 1);
    eventHandler.handle(update);
  }

  /**
   * Sends maps' rack and off-switch requests strict while a map waits for a node, gives waiting
   * maps the containers on their SSD nodes before the stock allocator sees them, and meanwhile
   * releases map containers on nodes no map asks for.
   */
  @Override
  protected AllocateResponse makeRemoteRequest() throws YarnException, IOException {
    boolean anyWaits = waiting.anyWaiting() || replicaWaits.anyWaiting();
    setStrictness(anyWaits);
    AllocateResponse response = super.makeRemoteRequest();
    if (waiting.anyWaiting() && !response.getAllocatedContainers().isEmpty()) {
      response.setAllocatedContainers(assignToWaitingMaps(response));
    }
    if (anyWaits && !response.getAllocatedContainers().isEmpty()) {
      response.setAllocatedContainers(releaseOffRequestedNodes(response));
    }
    return response;
  }

  /**
   * The containers left for the stock allocator but map containers on nodes that no map in its
   * book-keeping asks for, which are released. YARN's strictness keeps it from allocating there
   * for a waiting map, but it may still hand over a container allocated for an ask that shrank
   * meanwhile (another map's, placed elsewhere), and the stock allocator would give it to any map
   * of the rack: to a map waiting for its replicas' nodes too.
   */
  private List<Container> releaseOffRequestedNodes(AllocateResponse response) {
    Set<String> requested = new HashSet<>();
    getScheduledRequests().maps.values()
        .forEach(request -> requested.addAll(Arrays.asList(request.hosts)));
    List<Container> left = new ArrayList<>();
    for (Container container : response.getAllocatedContainers()) {
      String host = container.getNodeId().getHost();
      if (PRIORITY_MAP.equals(container.getPriority()) && !requested.contains(host)) {
        LOG.debug("mpCache: releasing {} on {}: no map asks for that node while maps wait",
            container.getId(), host);
        release(container.getId());
      } else {
        left.add(container);
      }
    }
    return left;
  }

  private void setStrictness(boolean strictNow) {
    List<ResourceRequest> fresh = new ArrayList<>();
    for (ResourceRequest ask : getAsk()) {
      if (PRIORITY_MAP.equals(ask.getPriority()) && isRackOrAny(ask.getResourceName())) {
        mapRelaxableRequests.put(ask.getResourceName(), ask);
        fresh.add(ask);
      }
    }
    // The table's request objects are what the stock allocator updates and sends; the ask set
    // orders them by priority, name and capability only, so the flag can change in place.
    for (ResourceRequest ask : strictNow == strict ? fresh : mapRelaxableRequests.values()) {
      ask.setRelaxLocality(!strictNow);
      getAsk().remove(ask);
      getAsk().add(ask);
    }
    mapRelaxableRequests.values().removeIf(ask -> ask.getNumContainers() == 0);
    strict = strictNow;
  }

  private static boolean isRackOrAny(String resourceName) {
    return ResourceRequest.isAnyLocation(resourceName)
        || resourceName.startsWith(NodeBase.PATH_SEPARATOR_STR);
  }

  /** The containers left for the stock allocator. */
  private List<Container> assignToWaitingMaps(AllocateResponse response) {
    // The stock allocator stores these after this call; a waiting map's container may be
    // launched before that.
    for (NMToken token : response.getNMTokens()) {
      NMTokenCache.setNMToken(token.getNodeId().toString(), token.getToken());
    }
    List<Container> left = new ArrayList<>();
    for (Container container : response.getAllocatedContainers()) {
      TaskAttemptId map = PRIORITY_MAP.equals(container.getPriority())
          && !isNodeBlacklisted(container.getNodeId().getHost()) ? waitingFor(container) : null;
      if (map == null) {
        left.add(container);
        continue;
      }
      Waiting placed = waiting.end(map);
      decContainerReq(placed.onSsd());
      eventHandler.handle(new TaskAttemptContainerAssignedEvent(map, container,
          applicationACLs));
      getAssignedRequests().add(container, map);
      count(map, JobCounter.DATA_LOCAL_MAPS);
      countPlacement(map, placed.input(), container);
    }
    return left;
  }

  /** The longest waiting map that can run in this container on its node, or null. */
  private TaskAttemptId waitingFor(Container container) {
    String host = container.getNodeId().getHost();
    return waiting.longestWaiting(map -> List.of(map.onSsd().hosts).contains(host)
        && Resources.fitsIn(map.onSsd().capability, container.getResource()));
  }
}
