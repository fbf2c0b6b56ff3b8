/** The model catalogue as the faces show it (light: no model runtime is loaded by importing this). */
export { fitLabel, type CatalogueModel } from '../llm/model-catalogue';
