// Projects (Alt+6): research projects — sources, claims with triangulated evidence, a citation
// audit of a draft or answer, and exports. The printed page (print stylesheet) is the project
// itself without the controls. Composes app/projects/*.
import { useEffect } from 'react';
import { DocumentViewer } from '../components/document-viewer';
import { AuditPanel } from '../projects/audit-panel';
import { ClaimResults } from '../projects/claim-results';
import { ClaimsEditor } from '../projects/claims-editor';
import { ExportPanel } from '../projects/export-panel';
import { ProjectDocuments } from '../projects/project-documents';
import { ProjectHeader, ProjectList } from '../projects/project-list';
import { refreshDocuments } from '../state/actions';
import { useAppStore } from '../state/app-store';
import { refreshProject, refreshProjects } from '../state/project-actions';
import { useProjectStore } from '../state/project-store';

export function ProjectsView() {
  const selected = useProjectStore((s) => s.selected);
  const open = useAppStore((s) => s.open);
  useEffect(() => {
    void refreshProjects();
    void refreshProject();
    void refreshDocuments().catch(() => undefined);
  }, []);
  return (
    <div className={open ? 'projects-layout with-viewer' : 'projects-layout'}>
      <ProjectList />
      <section className="project-main" aria-label="Project" data-testid="projects-view">
        {selected === null ? (
          <p className="empty">Create a project or pick one to collect sources and check claims.</p>
        ) : (
          <>
            <ProjectHeader />
            <ProjectDocuments />
            <ClaimsEditor />
            <ClaimResults />
            <AuditPanel />
            <ExportPanel />
          </>
        )}
      </section>
      {open && <DocumentViewer />}
    </div>
  );
}
