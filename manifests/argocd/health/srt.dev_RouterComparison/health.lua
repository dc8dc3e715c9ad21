-- Argo CD health check for srt.dev/RouterComparison (srt-operator).
-- Argo CD runs it in gopher-lua (Lua 5.1) with only the base, table and package libraries (no
-- string or math library unless useOpenLibs is set), so only base functions and table.* are used.
-- Every field may be absent: nothing here assumes that status, conditions or arms exist.
-- Embedded in manifests/argocd/argocd-cm-patch.yaml by update-argocd-cm-patch.sh (HealthLuaTest checks).
local hs = {}

local function tbl(v)
  if type(v) == "table" then
    return v
  end
  return nil
end

local function str(v)
  if type(v) == "string" and v ~= "" then
    return v
  end
  return nil
end

local function num(v)
  if type(v) == "number" then
    return v
  end
  if type(v) == "string" then
    return tonumber(v)
  end
  return nil
end

local o = tbl(obj) or {}
local metadata = tbl(o.metadata) or {}
local spec = tbl(o.spec) or {}
local status = tbl(o.status)
local generation = num(metadata.generation)
local suspend = spec.suspend == true

local function result(healthStatus, message)
  hs.status = healthStatus
  hs.message = message
  return hs
end

-- The condition of this type, unless it was written for an older generation.
local function condition(conditionType)
  local conditions = status and tbl(status.conditions)
  if conditions == nil then
    return nil
  end
  for _, c in ipairs(conditions) do
    if type(c) == "table" and c.type == conditionType then
      local observed = num(c.observedGeneration)
      if observed ~= nil and generation ~= nil and observed ~= generation then
        return nil
      end
      return c
    end
  end
  return nil
end

local function isTrue(c)
  return c ~= nil and c.status == "True"
end

local function isFalse(c)
  return c ~= nil and c.status == "False"
end

-- "Reason: message" of a condition.
local function explain(c, fallback)
  local reason = c and str(c.reason)
  local message = c and str(c.message)
  if reason ~= nil and message ~= nil then
    return reason .. ": " .. message
  end
  return message or reason or fallback
end

local function findArm(name)
  local arms = status and tbl(status.arms)
  if arms == nil or name == nil then
    return nil
  end
  for _, arm in ipairs(arms) do
    if type(arm) == "table" and arm.name == name then
      return arm
    end
  end
  return nil
end

local phaseWords = {
  Pending = "pending",
  Submitted = "submitted",
  Queued = "queued",
  Building = "building",
  Starting = "starting",
  Ready = "ready",
  Benchmarking = "benchmarking",
  Succeeded = "succeeded",
  Failed = "failed",
  Cancelled = "cancelled",
}

-- "1/2 workers ready, router ready" for a starting or ready arm, else its phase.
local function armDetail(arm)
  local phase = str(arm.phase)
  local word = (phase and phaseWords[phase]) or phase
  if phase == "Submitted" and str(arm.jobId) ~= nil then
    return "submitted as job " .. arm.jobId
  end
  if phase ~= nil and phase ~= "Starting" and phase ~= "Ready" then
    return word
  end
  local parts = {}
  local workers = tbl(arm.workers)
  local ready = workers and num(workers.ready)
  local total = workers and num(workers.total)
  if total ~= nil then
    table.insert(parts, tostring(ready or 0) .. "/" .. tostring(total) .. " workers ready")
  end
  local router = tbl(arm.router)
  if router ~= nil then
    if router.ready == true then
      table.insert(parts, "router ready")
    elseif total ~= nil and ready == total then
      table.insert(parts, "router not ready")
    end
  end
  if #parts == 0 then
    return word
  end
  return table.concat(parts, ", ")
end

-- "2/3 arms; current dynamo-kv: 1/2 workers ready"
local function progress(withMessage)
  local parts = {}
  local summary = str(status.armsSummary)
  if summary ~= nil then
    table.insert(parts, summary .. " arms")
  end
  local current = str(status.currentArm)
  if current ~= nil then
    local arm = findArm(current)
    local detail = arm and armDetail(arm)
    if detail ~= nil then
      table.insert(parts, "current " .. current .. ": " .. detail)
    else
      table.insert(parts, "current " .. current)
    end
  elseif withMessage and str(status.message) ~= nil then
    table.insert(parts, status.message)
  end
  if #parts == 0 then
    return nil
  end
  return table.concat(parts, "; ")
end

-- The operator has not written status for the current spec yet.
local observed = status and num(status.observedGeneration)
local stale = status == nil or (generation ~= nil and observed ~= generation)
if stale then
  local waiting = "waiting for the operator"
  if generation ~= nil then
    waiting = waiting .. " to observe generation " .. tostring(generation)
  end
  if suspend then
    return result("Suspended", "Suspended by spec.suspend; " .. waiting)
  end
  if status == nil then
    return result("Progressing", "No status yet; " .. waiting)
  end
  return result("Progressing", "Waiting for the operator to observe generation " .. tostring(generation))
end

local phase = str(status.phase)

-- Degraded: invalid spec, a failed arm, or jobs in flight on an unreachable cluster.
local specValid = condition("SpecValid")
if isFalse(specValid) then
  return result("Degraded", "Invalid spec: " .. (str(specValid.message) or str(specValid.reason) or "SpecValid is False"))
end
if phase == "Invalid" then
  return result("Degraded", "Invalid spec: " .. (str(status.message) or "phase Invalid"))
end
local degraded = condition("Degraded")
if isTrue(degraded) then
  return result("Degraded", explain(degraded, "Degraded"))
end
if phase == "Failed" then
  return result("Degraded", "Failed: " .. (str(status.message) or progress(false) or "phase Failed"))
end

if suspend then
  if phase == "Suspended" then
    local summary = str(status.armsSummary)
    if summary ~= nil then
      return result("Suspended", "Suspended by spec.suspend; " .. summary .. " arms")
    end
    return result("Suspended", "Suspended by spec.suspend")
  end
  return result("Progressing", "Suspending: " .. (progress(true) or phase or "waiting for the operator"))
end

-- Healthy: every arm succeeded, or the current arm serves.
local complete = condition("Complete")
if isTrue(complete) or (complete == nil and phase == "Succeeded") then
  local summary = str(status.armsSummary)
  if summary ~= nil then
    return result("Healthy", summary .. " arms succeeded")
  end
  return result("Healthy", explain(complete, "All arms succeeded"))
end
local ready = condition("Ready")
if isTrue(ready) then
  return result("Healthy", progress(false) or explain(ready, "Current arm ready"))
end

-- Progressing: arms pending or starting, or waiting for the cluster.
local message = progress(true) or phase or "Waiting for the operator"
local reachable = condition("ClusterReachable")
if isFalse(reachable) then
  message = "Cluster unreachable (" .. explain(reachable, "ClusterReachable is False") .. "); " .. message
end
if phase == "Suspended" then
  message = "Resuming: " .. message
end
return result("Progressing", message)
