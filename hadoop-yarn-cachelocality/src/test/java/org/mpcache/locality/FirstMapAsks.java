package org.mpcache.locality;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.hadoop.yarn.ams.ApplicationMasterServiceContext;
import org.apache.hadoop.yarn.ams.ApplicationMasterServiceProcessor;
import org.apache.hadoop.yarn.api.protocolrecords.AllocateRequest;
import org.apache.hadoop.yarn.api.protocolrecords.AllocateResponse;
import org.apache.hadoop.yarn.api.protocolrecords.FinishApplicationMasterRequest;
import org.apache.hadoop.yarn.api.protocolrecords.FinishApplicationMasterResponse;
import org.apache.hadoop.yarn.api.protocolrecords.RegisterApplicationMasterRequest;
import org.apache.hadoop.yarn.api.protocolrecords.RegisterApplicationMasterResponse;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.exceptions.YarnException;

/**
 * A ResourceManager interceptor (yarn.resourcemanager.application-master-service.processors)
 * that records how many map containers each application's first request for maps asked for,
 * then passes every call on unchanged.
 */
public class FirstMapAsks implements ApplicationMasterServiceProcessor {
  /** RMContainerAllocator.PRIORITY_MAP, the priority of MapReduce's map requests. */
  private static final int MAP_PRIORITY = 20;
  private static final Map<ApplicationId, Integer> FIRST = new ConcurrentHashMap<>();

  private ApplicationMasterServiceProcessor next;

  /** How many maps the application's first request for maps asked for, or null if none. */
  static Integer of(ApplicationId application) {
    return FIRST.get(application);
  }

  @Override
  public void init(ApplicationMasterServiceContext context,
      ApplicationMasterServiceProcessor nextProcessor) {
    next = nextProcessor;
  }

  @Override
  public void registerApplicationMaster(ApplicationAttemptId attempt,
      RegisterApplicationMasterRequest request, RegisterApplicationMasterResponse response)
      throws IOException, YarnException {
    next.registerApplicationMaster(attempt, request, response);
  }

  @Override
  public void allocate(ApplicationAttemptId attempt, AllocateRequest request,
      AllocateResponse response) throws YarnException {
    for (ResourceRequest ask : request.getAskList()) {
      if (ask.getPriority().getPriority() == MAP_PRIORITY
          && ResourceRequest.isAnyLocation(ask.getResourceName())) {
        FIRST.putIfAbsent(attempt.getApplicationId(), ask.getNumContainers());
      }
    }
    next.allocate(attempt, request, response);
  }

  @Override
  public void finishApplicationMaster(ApplicationAttemptId attempt,
      FinishApplicationMasterRequest request, FinishApplicationMasterResponse response) {
    next.finishApplicationMaster(attempt, request, response);
  }
}
