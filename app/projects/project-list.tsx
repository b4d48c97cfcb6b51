// Projects > the list: pick a project, create one (name + research question), rename or delete
// the one shown. Names are plain text (React escapes them).
import { useState } from 'react';
import {
  createProject,
  deleteProject,
  selectProject,
  updateProject,
} from '../state/project-actions';
import { useProjectStore } from '../state/project-store';

export function ProjectList() {
  const projects = useProjectStore((s) => s.projects);
  const selected = useProjectStore((s) => s.selected);
  const [name, setName] = useState('');
  const [question, setQuestion] = useState('');
  return (
    <nav className="project-list" aria-label="Projects">
      <h2>Projects</h2>
      <ul>
        {projects.map((p) => (
          <li key={p.id}>
            <button
              className={p.id === selected ? 'project-item active' : 'project-item'}
              aria-current={p.id === selected ? 'true' : undefined}
              onClick={() => void selectProject(p.id)}
              data-testid="project-item"
            >
              {p.name}
            </button>
          </li>
        ))}
      </ul>
      {projects.length === 0 && <p className="hint">No projects yet.</p>}
      <form
        className="project-create"
        onSubmit={(e) => {
          e.preventDefault();
          void createProject(name, question).then((ok) => {
            if (ok) {
              setName('');
              setQuestion('');
            }
          });
        }}
      >
        <label>
          New project
          <input
            value={name}
            onChange={(e) => setName(e.target.value)}
            placeholder="Name"
            data-testid="project-name"
          />
        </label>
        <label>
          Research question (optional)
          <input
            value={question}
            onChange={(e) => setQuestion(e.target.value)}
            data-testid="project-question"
          />
        </label>
        <button type="submit" disabled={!name.trim()} data-testid="project-create">
          Create project
        </button>
      </form>
    </nav>
  );
}

/** Rename (name and question) and delete the shown project. */
export function ProjectHeader() {
  const project = useProjectStore((s) => s.projects.find((p) => p.id === s.selected));
  const [editing, setEditing] = useState<{ name: string; question: string } | null>(null);
  if (!project) return null;
  if (editing) {
    return (
      <form
        className="project-head"
        onSubmit={(e) => {
          e.preventDefault();
          void updateProject(project.id, editing).then((ok) => ok && setEditing(null));
        }}
      >
        <label>
          Name
          <input
            value={editing.name}
            onChange={(e) => setEditing({ ...editing, name: e.target.value })}
            data-testid="project-rename-input"
          />
        </label>
        <label>
          Question
          <input
            value={editing.question}
            onChange={(e) => setEditing({ ...editing, question: e.target.value })}
          />
        </label>
        <button type="submit" data-testid="project-rename-save">
          Save
        </button>
        <button type="button" onClick={() => setEditing(null)}>
          Cancel
        </button>
      </form>
    );
  }
  return (
    <div className="project-head">
      <div>
        <h2 data-testid="project-title">{project.name}</h2>
        {project.question && <p className="hint">{project.question}</p>}
      </div>
      <div className="actions no-print">
        <button
          onClick={() => setEditing({ name: project.name, question: project.question })}
          data-testid="project-rename"
        >
          Rename
        </button>
        <button
          onClick={() => {
            if (confirm(`Delete the project “${project.name}”? Its documents stay in the library.`))
              void deleteProject(project.id);
          }}
          data-testid="project-delete"
        >
          Delete project
        </button>
      </div>
    </div>
  );
}
