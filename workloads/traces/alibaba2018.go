package traces

import (
	"cmp"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/plannerhq/planner/workloads"
)

// Alibaba batch_task columns, in file order.
const (
	aliTaskName = iota
	aliInstances
	aliJobName
	aliTaskType
	aliStatus
	aliStart
	aliEnd
	aliPlanCPU
	aliPlanMem
	aliFields
)

// aliTask is one task of an Alibaba job.
type aliTask struct {
	name  string
	dag   bool // the name encodes the DAG (M1, R4_2, M5_3_4, …)
	id    int  // the task's number in the DAG
	deps  []int
	inst  int
	start int64
	end   int64
	typ   string
}

// aliJob gathers the tasks of one job while the file is read.
type aliJob struct {
	name   string
	tasks  []aliTask
	status string // the first non-"terminated" task status, "" if none
}

// ParseAlibaba2018 reads batch_task.csv of Alibaba cluster-trace-v2018:
// CSV without a header, columns task_name, instance_num, job_name,
// task_type, status, start_time, end_time, plan_cpu, plan_mem (times in
// seconds from the trace's start, 0 = outside it; plan_* may be empty).
// Tasks are grouped by job_name in any line order. A task name like
// "M5_3_4" is task 5 depending on tasks 3 and 4 (the letter carries no
// dependency); names that do not follow this form ("task_…") are
// independent tasks.
//
// A job is kept when all its tasks are Terminated with times inside the
// trace and end ≥ start: submit = the earliest task start (the table has
// no submit time), runtime = latest end − earliest start (the DAG's
// makespan, > 0), width = the widest task's instance_num (≥ 1), task
// durations end − start per task. Its name feature is the DAG's shape
// (its sorted task names, independent tasks as "task"), so recurring
// pipelines share a name; Kind is "dag" when a task has dependencies,
// else "tasks". Other jobs are counted by the reason.
func ParseAlibaba2018(r io.Reader, name string, opts ParseOptions) (*Trace, error) {
	t := &Trace{Format: FormatAlibaba2018, Source: name}
	l := newLines(r, name, &opts, t)
	index := make(map[string]int)
	var jobs []*aliJob
	err := l.each(func(b []byte) error {
		f, err := splitCSV(b, aliFields)
		var task aliTask
		var status string
		if err == nil {
			task, status, err = parseAliTask(f)
		}
		if err != nil {
			return err
		}
		jobName := f[aliJobName]
		i, ok := index[jobName]
		if !ok {
			i = len(jobs)
			index[jobName] = i
			jobs = append(jobs, &aliJob{name: jobName})
		}
		j := jobs[i]
		j.tasks = append(j.tasks, task)
		if status != "terminated" && j.status == "" {
			j.status = status
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, j := range jobs {
		if rec, reason := j.record(); reason != "" {
			t.filter(reason)
		} else {
			t.Records = append(t.Records, rec)
		}
	}
	return t, nil
}

// aliMaxTime bounds start and end times (seconds; the trace spans 8 days).
const aliMaxTime = 1 << 40

func parseAliTask(f []string) (aliTask, string, error) {
	for i := range f {
		f[i] = strings.TrimSpace(f[i])
	}
	task := aliTask{name: f[aliTaskName], typ: f[aliTaskType]}
	if task.name == "" {
		return task, "", errors.New("task_name is empty")
	}
	if f[aliJobName] == "" {
		return task, "", errors.New("job_name is empty")
	}
	n, err := parseCount(f[aliInstances])
	if err != nil {
		return task, "", fmt.Errorf("instance_num: %v", err)
	}
	task.inst = n
	for _, c := range []struct {
		col  int
		name string
		dst  *int64
	}{{aliStart, "start_time", &task.start}, {aliEnd, "end_time", &task.end}} {
		v, err := strconv.ParseInt(f[c.col], 10, 64)
		if err != nil || v < 0 || v > aliMaxTime {
			return task, "", fmt.Errorf("%s: %q is not a time in seconds", c.name, f[c.col])
		}
		*c.dst = v
	}
	for _, c := range []struct {
		col  int
		name string
	}{{aliPlanCPU, "plan_cpu"}, {aliPlanMem, "plan_mem"}} {
		if s := f[c.col]; s != "" {
			if v, err := strconv.ParseFloat(s, 64); err != nil || !workloads.Finite(v) {
				return task, "", fmt.Errorf("%s: %q is not a number", c.name, s)
			}
		}
	}
	status := strings.ToLower(f[aliStatus])
	if status == "" {
		return task, "", errors.New("status is empty")
	}
	task.id, task.deps, task.dag = parseDAGName(task.name)
	return task, status, nil
}

// parseDAGName decodes a DAG task name: letters, the task's number, then
// "_"-separated numbers of the tasks it depends on. ok is false for names
// of another form (independent tasks).
func parseDAGName(s string) (id int, deps []int, ok bool) {
	i := 0
	for i < len(s) && (s[i] >= 'A' && s[i] <= 'Z' || s[i] >= 'a' && s[i] <= 'z') {
		i++
	}
	if i == 0 || i == len(s) {
		return 0, nil, false
	}
	parts := strings.Split(s[i:], "_")
	nums := make([]int, len(parts))
	for k, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 || p[0] == '+' || p[0] == '-' {
			return 0, nil, false
		}
		nums[k] = n
	}
	return nums[0], nums[1:], true
}

// maxNameLen is the longest DAG shape kept verbatim as the name feature;
// longer shapes are replaced by a 64-bit FNV-1a hash of them.
const maxNameLen = 64

// record turns a gathered job into a Record, or names why it is left out.
func (j *aliJob) record() (Record, string) {
	if j.status != "" {
		return Record{}, j.status
	}
	var rec Record
	first, last := int64(-1), int64(-1)
	width := 0
	shape := make([]string, len(j.tasks))
	types := map[string]bool{}
	dag := false
	for i, task := range j.tasks {
		if task.start == 0 || task.end == 0 {
			return rec, "outside the trace span"
		}
		if task.end < task.start {
			return rec, "end before start"
		}
		if first < 0 || task.start < first {
			first = task.start
		}
		last = max(last, task.end)
		width = max(width, task.inst)
		shape[i] = "task"
		if task.dag {
			shape[i] = task.name
			dag = dag || len(task.deps) > 0
		}
		if task.typ != "" {
			types[task.typ] = true
		}
	}
	if width <= 0 {
		return rec, "zero size"
	}
	if last <= first {
		return rec, "zero runtime"
	}
	tasks := slices.Clone(j.tasks)
	slices.SortStableFunc(tasks, func(a, b aliTask) int {
		return cmp.Or(cmp.Compare(a.id, b.id), cmp.Compare(a.name, b.name))
	})
	rec.TaskDurations = make([]float64, len(tasks))
	for i, task := range tasks {
		rec.TaskDurations[i] = float64(task.end - task.start)
	}
	slices.Sort(shape)
	name := strings.Join(shape, ",")
	if len(name) > maxNameLen {
		h := fnv.New64a()
		h.Write([]byte(name))
		name = fmt.Sprintf("dag-%016x", h.Sum64())
	}
	typeList := make([]string, 0, len(types))
	for k := range types {
		typeList = append(typeList, k)
	}
	slices.Sort(typeList)
	rec.Submit = float64(first)
	rec.Runtime = float64(last - first)
	rec.Size = width
	rec.Kind = "tasks"
	if dag {
		rec.Kind = "dag"
	}
	rec.Features = workloads.Features{
		Name:      name,
		App:       prefixed("type", strings.Join(typeList, "+")),
		Resources: "inst=" + strconv.Itoa(width),
	}
	rec.Features.SubmitHour, rec.Features.SubmitDay = workloads.SubmitHourDay(rec.Submit)
	return rec, ""
}
