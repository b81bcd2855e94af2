import * as vscode from 'vscode';

export const RESEARCH_VIEW_ID = 'unifiedInference.research';

/**
 * The Research Jobs view. Until jobs are listed (a later issue), the tree is empty so that the
 * view's welcome content (package.json `viewsWelcome`) guides the user.
 */
export class ResearchTreeProvider implements vscode.TreeDataProvider<never> {
  getTreeItem(element: never): vscode.TreeItem {
    return element;
  }

  getChildren(): never[] {
    return [];
  }
}
