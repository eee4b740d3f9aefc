// Package traces imports real cluster traces into workloads: parsers for
// the Standard Workload Format (swf), Google cluster-data 2011
// (google2011), Alibaba cluster-trace-v2018 batch tasks (alibaba2018) and
// LANL Mustang (mustang) turn a trace into Records, and Build turns those
// into a workloads.Workload — history, window, cluster fit, load and
// service classes — as planner workload import does.
//
// How each trace's fields become job features (3σPredict learns from user,
// name, app and resources, alone and combined):
//
//	format       user        name                     app                        resources
//	swf          u<user>     app<executable>          g<group>,q<queue>,p<part>  procs=<requested>[,time=<requested s>]
//	google2011   user hash   logical job name         class<scheduling class>    tasks=<distinct task indices>
//	alibaba2018  —           the job's DAG shape      type<task types>           inst=<widest task>
//	mustang      u<user>     —                        g<group>                   nodes=<n>[,time=<limit s>]
//
// Unknown fields (SWF's −1, empty CSV cells) are left out. Submit hour and
// day come from the trace's own clock: the SWF header's UnixStartTime and
// time zone, Mustang's timestamps; Google and Alibaba times are relative,
// so their hour and day count from the trace's time 0.
package traces
